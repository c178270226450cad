// An opening book for one game: _core.<Game>Book, which noughts.OpeningBook
// (python/noughts/book.py) fills from a book file and hands to solve.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "noughts/history.hpp"
#include "noughts/search/book.hpp"

namespace noughts::bindings {

namespace py = pybind11;

template <TextGame G>
void bind_book(py::module_& m, const std::string& game_name) {
  using B = Book<G>;
  // Move ids from the start, value, distance, and a line of best play (move ids; may be empty).
  using Line = std::tuple<std::vector<int>, int, int, std::vector<int>>;
  const std::string name = game_name + "Book";
  py::class_<B>(m, name.c_str(), "Exact scores of positions that solve takes instead of searching; use noughts.OpeningBook.")
      .def(py::init([](const History<G>& start) { return B(start.current()); }), py::arg("start"))
      .def(
          "add_lines",
          [](B& book, const std::vector<Line>& lines) {
            for (const auto& [moves, value, distance, line] : lines) {
              G g = book.start();
              for (int id : moves) {
                if (const std::string why = g.why_illegal(id); !why.empty())
                  throw IllegalMoveError("a book line's moves are not legal from its start: " + why);
                g.play(id);
              }
              book.add(g, value, distance, std::vector<Move>(line.begin(), line.end()));
            }
          },
          py::arg("lines"),
          "Adds (move ids from the start, value for the player to move, distance, line of best play) for each "
          "line; the value is 1, 0 or -1, the distance 0 for a draw, the line of move ids may be empty.")
      .def(
          "find",
          [](const B& book, const History<G>& h) -> std::optional<std::pair<int, int>> {
            if (!same_rules(h.current(), book.start())) return std::nullopt;
            if (const auto e = book.find(h.current())) return std::make_pair(int{e->value}, int{e->distance});
            return std::nullopt;
          },
          py::arg("game"), "(value, distance) of the position if the book holds it, else None.")
      .def(
          "line",
          [](const B& book, const History<G>& h) {
            return same_rules(h.current(), book.start()) ? book.line(h.current()) : std::vector<Move>{};
          },
          py::arg("game"), "The book's line of best play from the position (move ids), empty if none.")
      .def("__len__", &B::size)
      .def_property_readonly("min_ply", &B::min_ply)
      .def_property_readonly("max_ply", &B::max_ply);
}

}  // namespace noughts::bindings
