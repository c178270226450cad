// The match time control (noughts/search/turn_clock.hpp), bound as
// _core.TurnClock for noughts.codingame, so the Python mode and the
// exported bot keep time by the same rule.
#pragma once
#include <pybind11/pybind11.h>

#include "noughts/search/turn_clock.hpp"

namespace noughts::bindings {

namespace py = pybind11;

inline void bind_turn_clock(py::module_& m) {
  py::class_<TurnClock>(m, "TurnClock",
                        "A timed match's clock: how long each turn may search, with a margin that grows after "
                        "a late answer and decays over the next turns.")
      .def(py::init<double, double, double>(), py::arg("turn_ms"), py::arg("first_turn_ms"),
           py::arg("margin_ms") = TurnClock::kDefaultMarginMs)
      .def_readonly_static("DEFAULT_MARGIN_MS", &TurnClock::kDefaultMarginMs)
      .def_property_readonly("limit_ms", &TurnClock::limit_ms, "The coming turn's limit (ms).")
      .def_property_readonly("margin_ms", &TurnClock::margin_ms, "The coming turn's margin (ms).")
      .def_property_readonly("lateness_ms", &TurnClock::lateness_ms,
                             "The recent lateness of answers past their plan (a decaying maximum, ms).")
      .def_property_readonly("first_turn", &TurnClock::first_turn)
      .def("began_before_read_ms", &TurnClock::began_before_read_ms, py::arg("waited_ms"), py::arg("since_start_ms"),
           "How long before its first line was read the coming turn began: the read took waited_ms, and the "
           "program started since_start_ms before the line was read.")
      .def("search_ms", &TurnClock::search_ms, py::arg("spent_ms"),
           "How long the coming turn may still search, spent_ms after it began (at least 1 ms).")
      .def("answered", &TurnClock::answered, py::arg("elapsed_ms"),
           "The coming turn's answer went out elapsed_ms after the turn began.");
}

}  // namespace noughts::bindings
