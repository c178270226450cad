// A bounded transposition table for the exact solver: score bounds and the
// best move per position, in two-entry buckets (one kept by the size of the
// subtree that produced it, one always replaced). Threads of one solve may
// share it (share()).
//
// The table starts small and grows (by rehashing) as it fills, up to the
// byte budget: a small solve does not pay to clear a large table, and a
// large one gets all the memory it was allowed. Past the size of a core's
// cache it grows at once only for a search rich in transpositions (whose
// probes often find their position); for the others only as a solve turns it
// over many times: there, a probe that misses the cache costs more than
// most of the nodes a larger table spares a solve of a few million nodes.
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <new>
#include <optional>
#include <ostream>
#include <vector>

#include "noughts/errors.hpp"

#include "noughts/search/prefetch.hpp"
#include "noughts/search/zeroed_table.hpp"

namespace noughts {

class TranspositionTable {
 public:
  static constexpr std::uint8_t kNoMove = 0xff;
  struct Entry {
    std::uint64_t key = 0;
    std::int16_t lower = 0;
    std::int16_t upper = 0;
    std::uint8_t move = kNoMove;
    std::uint8_t work = 0;  // log2 of the nodes searched below; what is kept on collision
  };

  explicit TranspositionTable(std::size_t max_bytes) {
    // The largest power of two of buckets within the budget (no overflow for any budget).
    max_buckets_ = std::bit_floor(std::max<std::size_t>(max_bytes / sizeof(Bucket), 1));
    resize(std::min<std::size_t>(max_buckets_, kInitialBuckets));
  }

  // Makes the table safe to share between threads that probe and store at
  // once: it no longer grows by itself (a growing table moves under its
  // readers). Its owner asks growth_due() with the stores all threads made
  // since it last grew, and calls grow() while no other thread uses it.
  // Entries are written without locks: a slot holds its key XORed with its
  // data, so a read that meets a write half done sees a key that matches
  // nothing, a miss.
  void share() noexcept { shared_ = true; }
  // Back to one thread (the others have stopped): it grows by itself again,
  // for a table that outlives a solve (SolveTable, noughts.Solver).
  void unshare() noexcept { shared_ = false; }
  // Whether the table has seen enough of its search to tell whether it is
  // rich in transpositions: a shared table keeps the verdict it had when it
  // was shared, so it should be shared only once it has one.
  bool knows_its_search() const noexcept { return stores_ >= kMinStores; }
  // Without a count of occupied slots, a store per bucket stands in for
  // "full enough".
  bool growth_due(std::uint64_t stores) const noexcept { return may_grow(stores, table_.size()); }
  // Four times as large, within the budget; where the memory is not to be
  // had, the table stays as it is and grows no more.
  void grow() noexcept {
    if (table_.size() >= max_buckets_) return;
    try {
      resize(std::min(max_buckets_, table_.size() * 4));
    } catch (const std::bad_alloc&) {
      max_buckets_ = table_.size();
    }
  }

  // Starts loading a key's bucket, so a find() a little later does not wait
  // for memory.
  void prefetch(std::uint64_t key) const noexcept {
    detail::prefetch(&table_[key & mask_]);
  }

  std::optional<Entry> find(std::uint64_t key) const noexcept {
    for (const Slot& slot : table_[key & mask_].slots)
      if (const auto data = held(slot, key)) {
        if (!shared_) ++hits_;  // shared, the count stays that of the search before
        return unpack(key, *data);
      }
    return std::nullopt;
  }

  void store(std::uint64_t key, int lower, int upper, int move, int work) {
    Bucket& b = table_[key & mask_];
    Slot* slot = nullptr;
    for (Slot& s : b.slots)
      if (const auto data = held(s, key)) {
        // The same position: keep the tighter bounds.
        const Entry e = unpack(key, *data);
        lower = std::max<int>(lower, e.lower);
        upper = std::min<int>(upper, e.upper);
        if (move == kNoMove) move = e.move;
        work = std::max<int>(work, e.work);
        slot = &s;
      }
    bool filled = false;  // a free slot taken
    if (!slot) {
      slot = &replaced(b, work);
      filled = !used(load(slot->data));
    }
    write(*slot, key, lower, upper, move, work);
    if (shared_) return;
    // Alone, it grows when its occupied slots outnumber its buckets and,
    // past the cache's size, the search is rich in transpositions or has
    // turned the table over enough: asked when a slot fills, and now and
    // then for the turnover.
    used_ += filled;
    ++stores_;
    if ((filled || (stores_ & 4095) == 0) && used_ > table_.size() && may_grow(stores_, 0)) grow();
  }

  std::size_t bytes() const noexcept { return table_.bytes(); }

  // The table in a file (noughts.Solver.save), so that a solve of hours
  // can stop and go on in another process: a tag, the count of entries,
  // each entry as its key and data words, and a check word over them all,
  // in the machine's byte order. Keys depend only on the positions and the
  // rules, so the entries hold for any later solve of the same rules (and
  // the same `symmetry`), which the file's reader must see to. Call while
  // no thread uses the table.
  void save(std::ostream& out) const {
    std::uint64_t count = 0;
    for (const Bucket& b : table_)
      for (const Slot& s : b.slots) count += used(s.data);
    put_word(out, kFileTag);
    put_word(out, count);
    std::uint64_t check = kFileTag ^ count;
    std::vector<std::uint64_t> chunk;
    chunk.reserve(kFileChunk);
    auto flush = [&] {
      out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(chunk.size() * 8));
      chunk.clear();
    };
    for (const Bucket& b : table_)
      for (const Slot& s : b.slots)
        if (used(s.data)) {
          chunk.push_back(s.check ^ s.data);
          chunk.push_back(s.data);
          check = file_check(check, s.check ^ s.data, s.data);
          if (chunk.size() >= kFileChunk) flush();
        }
    flush();
    put_word(out, check);
    if (!out) throw InvalidOptionError("the table could not be written (is the disk full?)");
  }
  // Replaces the contents by a saved table's (save()), read from `in`: as
  // large a table as the entries take within the budget, each entry where
  // a store would put it (a smaller budget keeps the more searched of two
  // that meet). Throws InvalidOptionError for a file that is not a table
  // or ends early, leaving the table empty.
  void load(std::istream& in) {
    const std::uint64_t tag = get_word(in), count = get_word(in);
    if (!in || tag != kFileTag) throw InvalidOptionError("not a table noughts saved (or one of another machine's byte order)");
    // As many buckets as entries (half the slots), within the budget (a power of two).
    const std::uint64_t wanted = std::min<std::uint64_t>(std::max<std::uint64_t>(count, kInitialBuckets), max_buckets_);
    make_empty(static_cast<std::size_t>(std::bit_ceil(wanted)));
    std::uint64_t check = kFileTag ^ count;
    std::vector<std::uint64_t> chunk(kFileChunk);
    for (std::uint64_t left = count; left > 0;) {
      const std::uint64_t n = std::min<std::uint64_t>(left, kFileChunk / 2);
      in.read(reinterpret_cast<char*>(chunk.data()), static_cast<std::streamsize>(n * 16));
      if (!in) {
        make_empty();
        throw InvalidOptionError("the table's file ends before its entries do");
      }
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t key = chunk[2 * i], data = chunk[2 * i + 1];
        check = file_check(check, key, data);
        if (!used(data)) continue;  // never written so: the check word will not match either
        Slot& slot = replaced(table_[key & mask_], work_of(data));
        used_ += !used(slot.data);
        slot = Slot{key ^ data, data};
      }
      left -= n;
    }
    if (get_word(in) != check || !in) {
      make_empty();
      throw InvalidOptionError("the table's file is damaged (its check word does not match its entries)");
    }
  }

 private:
  // "nghtsTT" and the entries' layout version: a change to the data word's
  // fields or to what scores mean must change it.
  static constexpr std::uint64_t kFileTag = 0x6e676874735454'01;
  static constexpr std::size_t kFileChunk = std::size_t{1} << 16;  // words read or written at a time
  static void put_word(std::ostream& out, std::uint64_t w) { out.write(reinterpret_cast<const char*>(&w), 8); }
  static std::uint64_t get_word(std::istream& in) {
    std::uint64_t w = 0;
    in.read(reinterpret_cast<char*>(&w), 8);
    return w;
  }
  // The table with `buckets` empty buckets, what it held dropped (resize keeps it).
  void make_empty(std::size_t buckets) {
    table_ = ZeroedTable<Bucket>(buckets);
    mask_ = buckets - 1;
    used_ = 0;
    stores_ = hits_ = 0;
  }
  void make_empty() { make_empty(std::min(max_buckets_, kInitialBuckets)); }
  static std::uint64_t file_check(std::uint64_t check, std::uint64_t key, std::uint64_t data) noexcept {
    return std::rotl(check, 5) ^ key ^ std::rotl(data, 29);
  }

  static constexpr std::size_t kInitialBuckets = std::size_t{1} << 10;  // 32 KiB
  // The largest table that keeps a probe in a core's cache on common
  // hardware (a second-level cache of 2 MiB or more), and the stores per
  // slot a larger table takes before it grows again: enough that a solve
  // of a few million nodes keeps its table in cache, while a solve of tens
  // of millions still gets the memory that spares it nodes.
  static constexpr std::size_t kCachedBytes = std::size_t{2} << 20;
  static constexpr std::uint64_t kTurnover = 32;
  // A search is rich in transpositions when it finds positions in the
  // table this often for each it stores (Connect Four's about one in five,
  // 5x5 four in a row with misère and free choice about three for one).
  static constexpr double kRichHits = 0.4;
  // An entry's data in one word: bits 0-15 lower, 16-31 upper, 32-39 move,
  // 40-47 work, bit 48 in use; the other word is the key XOR the data.
  struct Slot {
    std::uint64_t check;
    std::uint64_t data;
  };
  struct Bucket {
    Slot slots[2];
  };
  static constexpr std::uint64_t kUsed = std::uint64_t{1} << 48;

  // Relaxed atomic access: plain moves on common hardware, and no data race
  // when the table is shared.
  static std::uint64_t load(const std::uint64_t& word) noexcept {
    return std::atomic_ref<const std::uint64_t>(word).load(std::memory_order_relaxed);
  }
  static void put(std::uint64_t& word, std::uint64_t value) noexcept {
    std::atomic_ref<std::uint64_t>(word).store(value, std::memory_order_relaxed);
  }
  static bool used(std::uint64_t data) noexcept { return data & kUsed; }
  static int work_of(std::uint64_t data) noexcept { return static_cast<int>(data >> 40 & 0xff); }
  // A slot's data if it holds `key` (read once, so that a slot being
  // written is a miss, not a mix of two entries).
  static std::optional<std::uint64_t> held(const Slot& s, std::uint64_t key) noexcept {
    const std::uint64_t data = load(s.data);
    if (used(data) && (load(s.check) ^ data) == key) return data;
    return std::nullopt;
  }
  static Entry unpack(std::uint64_t key, std::uint64_t data) noexcept {
    return {key, static_cast<std::int16_t>(static_cast<std::uint16_t>(data)),
            static_cast<std::int16_t>(static_cast<std::uint16_t>(data >> 16)), static_cast<std::uint8_t>(data >> 32),
            static_cast<std::uint8_t>(work_of(data))};
  }

  // The slot a new entry of `work` takes: the kept slot when it is empty or
  // holds no more work, else the always-replaced one.
  static Slot& replaced(Bucket& b, int work) noexcept {
    const std::uint64_t kept = load(b.slots[0].data);
    return (!used(kept) || work >= work_of(kept)) ? b.slots[0] : b.slots[1];
  }

  static void write(Slot& s, std::uint64_t key, int lower, int upper, int move, int work) noexcept {
    const std::uint64_t data = std::uint64_t{static_cast<std::uint16_t>(lower)} |
                               std::uint64_t{static_cast<std::uint16_t>(upper)} << 16 |
                               std::uint64_t{static_cast<std::uint8_t>(move)} << 32 |
                               std::uint64_t{static_cast<std::uint8_t>(work)} << 40 | kUsed;
    put(s.data, data);
    put(s.check, key ^ data);
  }

  bool cached() const noexcept { return table_.bytes() < kCachedBytes; }
  bool rich() const noexcept {
    return knows_its_search() && static_cast<double>(hits_) >= kRichHits * static_cast<double>(stores_);
  }
  // Whether a table that has taken `stores` (of all threads) since it last
  // grew may grow: after `enough` of them while it fits the cache or the
  // search is rich in transpositions, else after kTurnover a slot.
  bool may_grow(std::uint64_t stores, std::uint64_t enough) const noexcept {
    return table_.size() < max_buckets_ && stores >= (cached() || rich() ? enough : kTurnover * 2 * table_.size());
  }

  // Buckets are plain data, all-zero bytes an empty bucket.
  void resize(std::size_t buckets) {
    const ZeroedTable<Bucket> old = table_.replace(buckets);
    mask_ = buckets - 1;
    used_ = 0;
    if (!shared_) stores_ = hits_ = 0;
    for (const Bucket& b : old)
      for (const Slot& s : b.slots)
        if (used(s.data)) {
          Slot& slot = replaced(table_[(s.check ^ s.data) & mask_], work_of(s.data));
          used_ += !used(slot.data);
          slot = s;
        }
  }

  ZeroedTable<Bucket> table_;
  std::size_t mask_ = 0;
  std::size_t max_buckets_ = 1;
  std::size_t used_ = 0;  // occupied slots; growth when they outnumber buckets
  std::uint64_t stores_ = 0;  // since the table last grew (alone; shared, its owner counts)
  // Probes that found their position since the table last grew (alone;
  // shared, those of the search before), told as a share of the stores
  // once there are this many.
  static constexpr std::uint64_t kMinStores = 4096;
  mutable std::uint64_t hits_ = 0;
  bool shared_ = false;
};

}  // namespace noughts
