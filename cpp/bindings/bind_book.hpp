// An opening book for one game: _core.<Game>Book, which noughts.OpeningBook
// (python/noughts/book.py) fills from a book file and hands to solve.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "noughts/history.hpp"
#include "noughts/search/book.hpp"
#include "noughts/search/book_text.hpp"

namespace noughts::bindings {

namespace py = pybind11;

template <TextGame G>
void bind_book(py::module_& m, const std::string& game_name) {
  using B = Book<G>;
  const std::string name = game_name + "Book";
  py::class_<B>(m, name.c_str(), "Exact scores of positions that solve takes instead of searching; use noughts.OpeningBook.")
      .def(py::init([](const History<G>& start) { return B(start.current()); }), py::arg("start"))
      .def(
          "add_text", [](B& book, std::string_view text) { add_book_text(book, text); }, py::arg("text"),
          "Adds the positions of a book file's text (its '#' lines skipped); raises InvalidOptionError naming "
          "the first line that does not fit ('line N: why'), the lines before it added.")
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
