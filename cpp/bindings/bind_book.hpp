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
  using Line = std::tuple<std::vector<int>, int, int>;  // move ids from the start, value, distance
  const std::string name = game_name + "Book";
  py::class_<B>(m, name.c_str(), "Exact scores of positions that solve takes instead of searching; use noughts.OpeningBook.")
      .def(py::init([](const History<G>& start) { return B(start.current()); }), py::arg("start"))
      .def(
          "add_lines",
          [](B& book, const std::vector<Line>& lines) {
            for (const auto& [moves, value, distance] : lines) {
              G g = book.start();
              for (int id : moves) {
                if (const std::string why = g.why_illegal(id); !why.empty())
                  throw IllegalMoveError("a book line's moves are not legal from its start: " + why);
                g.play(id);
              }
              book.add(g, value, distance);
            }
          },
          py::arg("lines"),
          "Adds (move ids from the start, value for the player to move, distance) for each line; the value is 1, 0 "
          "or -1 and the distance 0 for a draw.")
      .def(
          "find",
          [](const B& book, const History<G>& h) -> std::optional<std::pair<int, int>> {
            if (!same_rules(h.current(), book.start())) return std::nullopt;
            if (const auto e = book.find(h.current())) return std::make_pair(int{e->value}, int{e->distance});
            return std::nullopt;
          },
          py::arg("game"), "(value, distance) of the position if the book holds it, else None.")
      .def("__len__", &B::size)
      .def_property_readonly("min_ply", &B::min_ply)
      .def_property_readonly("max_ply", &B::max_ply);
}

}  // namespace noughts::bindings
