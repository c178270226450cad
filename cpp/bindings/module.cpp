// noughts._core: the C++ engine for Python. Each game binds itself in its
// own file through bind_game.hpp; this file holds what they share.
#include <pybind11/native_enum.h>
#include <pybind11/pybind11.h>

#include "bind_classic.hpp"
#include "bind_quantum.hpp"
#include "bind_turn_clock.hpp"
#include "bind_ultimate.hpp"
#include "player_object.hpp"
#include "noughts/errors.hpp"
#include "noughts/player.hpp"
#include "noughts/search/solver.hpp"

namespace py = pybind11;
using namespace noughts;

namespace {

// C++ exceptions become the classes of noughts.errors (ValueError subclasses).
void translate_errors() {
  py::register_exception_translator([](std::exception_ptr p) {
    auto raise = [](const char* cls, const char* what) {
      py::object type = py::module_::import("noughts.errors").attr(cls);
      PyErr_SetString(type.ptr(), what);
    };
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IllegalMoveError& e) {
      raise("IllegalMoveError", e.what());
    } catch (const InvalidMoveError& e) {
      raise("InvalidMoveError", e.what());
    } catch (const InvalidPositionError& e) {
      raise("InvalidPositionError", e.what());
    } catch (const InvalidOptionError& e) {
      raise("InvalidOptionError", e.what());
    } catch (const SearchStopped& e) {
      py::object type = py::module_::import("noughts.errors").attr("SearchTimeout");
      PyErr_SetObject(type.ptr(), py::make_tuple(e.what(), e.nodes, e.seconds).ptr());
    }
  });
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The noughts C++ engine. Use the classes of the noughts package rather than these directly.";
  py::native_enum<Player>(m, "Player", "enum.IntEnum", "A player; X always moves first.")
      .value("X", Player::X)
      .value("O", Player::O)
      .finalize();
  noughts::bindings::remember_players(m.attr("Player"));
  py::native_enum<Termination>(m, "Termination", "enum.IntEnum", "Why a game ended.")
      .value("NONE", Termination::None, "The game goes on.")
      .value("LINE", Termination::Line, "The winner completed a line (Ultimate: of small boards).")
      .value("MISERE_LINE", Termination::MisereLine, "The loser completed a line (misere).")
      .value("EARLIER_LINE", Termination::EarlierLine,
             "Quantum: a collapse gave both players lines; the earlier line won.")
      .value("FULL_BOARD", Termination::FullBoard, "A draw: no line and no move left.")
      .value("MORE_BOARDS", Termination::MoreBoards,
             "Ultimate with tiebreak=True: every small board decided without a line of boards; "
             "the winner won more small boards.")
      .finalize();
  translate_errors();
  noughts::bindings::bind_classic(m);
  noughts::bindings::bind_ultimate(m);
  noughts::bindings::bind_quantum(m);
  noughts::bindings::bind_turn_clock(m);
}
