// The one binding template: every game gets the same Python surface from it,
// and search functions get one overload per game. Game-specific extras
// (constructors with options, properties) are added by the caller on the
// returned class.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <string>

#include "bind_learning.hpp"
#include "bind_mcts.hpp"
#include "bind_book.hpp"
#include "bind_prover.hpp"
#include "bind_proof_number.hpp"
#include "bind_solver.hpp"
#include "interruptible.hpp"
#include "player_object.hpp"
#include "noughts/errors.hpp"
#include "noughts/history.hpp"
#include "noughts/search/perft.hpp"
#include "noughts/search/playout.hpp"

namespace noughts::bindings {

namespace py = pybind11;

// The UTF-8 text of a Python str; a str that cannot be encoded (lone
// surrogates) is not text in any notation: E is thrown with a message.
template <class E>
std::string utf8_or_throw(py::handle obj, const char* what) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
  if (!data) {
    PyErr_Clear();
    throw E(std::string("cannot read ") + what + ": the text is not valid Unicode (it cannot be encoded as UTF-8)");
  }
  return std::string(data, static_cast<std::size_t>(size));
}

// A noughts.Move carries its id and its notation: both must name the same
// move of this game (a Move of another game, or one built by hand with a
// wrong name, is refused rather than played by its id alone).
inline py::handle move_class() {
  // Kept for the life of the interpreter (never released: no destructor runs after it is gone).
  static PyObject* cls = py::object(py::module_::import("noughts._game").attr("Move")).release().ptr();
  return cls;
}

template <TextGame G>
void check_move_name(const G& game, PyObject* p, Move id) {
  const int is_move = PyObject_IsInstance(p, move_class().ptr());
  if (is_move < 0) throw py::error_already_set();
  if (!is_move || id < 0 || id >= game.num_actions()) return;  // out of range: play() says so
  py::object name = py::reinterpret_borrow<py::object>(p).attr("name");
  const std::string expected = game.move_name(id);
  if (!PyUnicode_Check(name.ptr()) || utf8_or_throw<InvalidMoveError>(name, "the move's name") != expected)
    throw InvalidMoveError("the Move's id and name disagree: id " + std::to_string(id) + " is " + expected +
                           " in this game, not " + py::repr(name).cast<std::string>());
}

// A move given from Python: an int id (or anything with __index__, such as
// noughts.Move or a numpy integer) or a notation string.
template <TextGame G>
Move move_from_python(const G& game, py::handle obj) {
  PyObject* p = obj.ptr();
  if (PyUnicode_Check(p)) return game.parse_move(utf8_or_throw<InvalidMoveError>(obj, "the move"));
  if (PyBool_Check(p))
    throw InvalidMoveError("a move is an int id, a noughts.Move or a notation string, not a bool");
  if (PyIndex_Check(p)) {
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(p));
    if (!index) throw py::error_already_set();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow || v < INT_MIN || v > INT_MAX)
      throw IllegalMoveError(move_id_out_of_range(py::str(index).cast<std::string>(), game.num_actions()));
    if (!PyLong_CheckExact(p)) check_move_name(game, p, static_cast<Move>(v));
    return static_cast<Move>(v);
  }
  throw InvalidMoveError("a move is an int id, a noughts.Move or a notation string, not " +
                         std::string(Py_TYPE(p)->tp_name));
}

// The set bits of a mask (cells, boards), ascending, as a list of ints.
inline py::list bit_list(std::uint64_t mask) {
  py::list out;
  bits::for_each(mask, [&](int i) { out.append(i); });
  return out;
}

template <TextGame G>
py::list move_ids(const typename G::MoveList& moves) {
  py::list out(moves.size());
  for (int i = 0; i < moves.size(); ++i) PyList_SET_ITEM(out.ptr(), i, PyLong_FromLong(moves[i]));
  return out;
}

template <Observable G>
py::class_<History<G>> bind_game(py::module_& m, const char* name) {
  using H = History<G>;
  py::class_<H> cls(m, name);
  cls.def(py::init<const H&>(), py::arg("other"), "A copy of another game, history included.")
      .def(
          "legal_actions",
          [](const H& h) {
            typename G::MoveList moves;
            h.current().legal_moves(moves);
            return move_ids<G>(moves);
          },
          "The ids of the legal moves, ascending (empty once the game is over).")
      .def(
          "is_legal",
          [](const H& h, py::handle move) {
            try {
              return h.current().why_illegal(move_from_python(h.current(), move)).empty();
            } catch (const std::invalid_argument&) {
              return false;
            }
          },
          py::arg("move"), "Whether a move (id, Move or notation) is legal here.")
      .def(
          "play", [](H& h, py::handle move) { h.play(move_from_python(h.current(), move)); }, py::arg("move"),
          "Plays a move given as an id, a Move or in notation. Raises IllegalMoveError or InvalidMoveError and "
          "leaves the game unchanged when the move cannot be played.")
      .def(
          "undo",
          [](H& h) -> py::object {
            if (h.moves().empty()) {
              h.undo();  // raises IndexError
              return py::none();
            }
            const Move last = h.moves().back();
            py::object move = move_class()(last, h.current().move_name(last));
            h.undo();
            return move;
          },
          "Takes the last move back and returns it (a noughts.Move, as history holds it); IndexError when no move "
          "was played.")
      .def_property_readonly("to_move", [](const H& h) { return player_object(h.current().to_move()); },
                             "The player to move (in Quantum, the chooser of a pending collapse).")
      .def_property_readonly("ply", [](const H& h) { return h.current().ply(); },
                             "Moves played since the start of the game.")
      .def("is_over", [](const H& h) { return h.current().outcome().over(); })
      .def_property_readonly("winner", [](const H& h) { return player_object(h.current().outcome().winner()); },
                             "Player.X or Player.O once a player has won, else None.")
      .def_property_readonly("termination", [](const H& h) { return h.current().outcome().termination; },
                             "Why the game ended (Termination.NONE while it goes on).")
      .def_property_readonly("num_actions", [](const H& h) { return h.current().num_actions(); },
                             "The size of the move id space (for action masks).")
      .def_property_readonly("move_ids", [](const H& h) { return h.moves(); },
                             "The ids of the moves played, first to last.")
      .def(
          "move_name",
          [](const H& h, py::handle move) {
            return h.current().move_name(move_from_python(h.current(), move));
          },
          py::arg("move"), "The notation of a move id in this game.")
      .def(
          "parse_move",
          [](const H& h, py::handle text) {
            if (!PyUnicode_Check(text.ptr()))
              throw InvalidMoveError(std::string("parse_move reads notation (a str), not ") + Py_TYPE(text.ptr())->tp_name);
            return h.current().parse_move(utf8_or_throw<InvalidMoveError>(text, "the move"));
          },
          py::arg("text"), "The id of a move written in notation (legality is not checked).")
      .def_property_readonly("max_game_length", [](const H& h) { return h.current().max_game_length(); },
                             "The most moves a game can last, from the start.")
      .def(
          "completed_lines",
          [](const H& h) {
            py::list out;
            for (const auto& line : h.current().completed_lines())
              out.append(py::make_tuple(line.owner, py::tuple(py::cast(line.cells))));
            return out;
          },
          "The lines complete on the board, as (owner, cells ascending): the symbol in Classic, the player in "
          "Quantum, and in Ultimate the player who won the small boards of a line of boards.")
      .def(
          "move_cells",
          [](const H& h, py::handle move) { return h.current().move_cells(move_from_python(h.current(), move)); },
          py::arg("move"),
          "The cells of the board's grid (row * columns + column) that a move marks, as the last move played: "
          "Classic the cell of its mark (with gravity the top mark of its column, none if it is empty), "
          "Ultimate its square of the 9x9 grid, Quantum the cells of a spooky pair or the one cell of the others.")
      .def("to_string", [](const H& h) { return h.current().to_string(); },
           "The one-line position string; from_string() reads it back.")
      .def("start_string", [](const H& h) { return h.start().to_string(); },
           "The position string of the position the history starts from.")
      .def("render", [](const H& h) { return h.current().render(); }, "The board as readable text.")
      .def_property_readonly("status", [](const H& h) { return h.current().status(); },
                             "One line for people: whose turn it is and what they play, or the result and why.")
      .def_property_readonly("explanation", [](const H& h) { return h.current().explanation(); },
                             "For a finished game, who won and why in one or two sentences, with the cells or boards "
                             "that decided it; for a game still being played, the same as status.")
      .def("position_hash", [](const H& h) { return h.current().hash(); },
           "A 64-bit hash of the position (not of its history).")
      .def(
          "solver_key",
          [](const H& h, bool symmetry) {
            const G& g = h.current();
            return canonical_key(g, search_state_of(g), symmetry);
          },
          py::arg("symmetry") = true,
          "The key the exact solver's table files the position under: one for every position the solver takes as "
          "the same (see noughts.Game.solver_key).")
      .def("__eq__",
           [](const H& a, py::handle b) -> py::object {
             if (!py::isinstance<H>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
             return py::bool_(a.current() == b.cast<const H&>().current());
           })
      .def("__hash__", [](const H& h) { return static_cast<Py_ssize_t>(h.current().hash() >> 1); })
      .def_property_readonly("num_symmetries", [](const H& h) { return h.current().num_symmetries(); },
                             "How many symmetries of the board keep the rules (0 is the identity).")
      .def(
          "_symmetric",
          [](const H& h, int s) {
            const int n = h.current().num_symmetries();
            if (s < 0 || s >= n)
              throw InvalidOptionError("symmetry " + std::to_string(s) + " is out of range: 0.." + std::to_string(n - 1));
            return H(h.current().symmetric(s));
          },
          py::arg("s"), "The position under symmetry s (0 = identity), as a new game without history.")
      .def_static(
          "_from_string",
          [](py::str text) { return H(G::from_string(utf8_or_throw<InvalidPositionError>(text, "the position"))); },
          py::arg("text"));

  // Both copy the position with the GIL held (another thread may play on the
  // game meanwhile) and run interruptibly: Ctrl-C stops them.
  m.def(
      "perft",
      [](const H& h, int depth) {
        const G root = h.current();
        if (depth <= 2) return perft(root, depth);  // at once: not worth a worker thread
        return run_interruptible([&](std::atomic<bool>& stop) { return perft(root, depth, &stop); });
      },
      py::arg("game"), py::arg("depth"),
      "The number of legal move sequences of exactly `depth` moves from the position.");
  m.def(
      "random_playouts",
      [](const H& h, std::uint64_t n, std::uint64_t seed) {
        const G root = h.current();
        auto c = run_interruptible([&](std::atomic<bool>& stop) { return random_playouts(root, n, seed, &stop); });
        return std::make_tuple(c.x_wins, c.o_wins, c.draws);
      },
      py::arg("game"), py::arg("n"), py::arg("seed") = 0,
      "Plays n uniformly random games from the position; returns (x_wins, o_wins, draws).");
  bind_mcts<G>(m, name);
  bind_book<G>(m, name);
  bind_solver<G>(m);
  bind_proof_number<G>(m);
  bind_prover<G>(m, name);
  bind_learning<G>(m, cls, name);
  return cls;
}

}  // namespace noughts::bindings
