// Observations, legal masks and the batched VectorGame for one game, as
// numpy arrays filled in C++ (the GIL is released while a batch steps).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>
#include <vector>

#include "exclusive.hpp"
#include "noughts/history.hpp"
#include "noughts/vector_game.hpp"

namespace noughts::bindings {

namespace py = pybind11;

// A VectorGame steps without the GIL, so each method that reads or writes its
// games enters its ExclusiveUse: a second thread gets a RuntimeError.
template <class G>
struct GuardedVector : VectorGame<G> {
  using VectorGame<G>::VectorGame;
  ExclusiveUse use;
  static constexpr const char* kInUse = "this VectorGame is in use";
};

template <Observable G>
void bind_learning(py::module_& m, py::class_<History<G>>& cls, const std::string& name) {
  using H = History<G>;
  using V = GuardedVector<G>;
  cls.def_property_readonly(
         "observation_shape",
         [](const H& h) {
           const auto s = h.current().observation_shape();
           return py::make_tuple(s.planes, s.rows, s.cols);
         },
         "The shape (planes, rows, cols) of observation().")
      .def(
          "_observation",
          [](const H& h, Player view) {
            const auto s = h.current().observation_shape();
            py::array_t<std::uint8_t> out({s.planes, s.rows, s.cols});
            h.current().observe(out.mutable_data(), view);
            return out;
          },
          py::arg("view"), "The observation planes as uint8 (0/1), as `view` sees the position.")
      .def(
          "_action_mask",
          [](const H& h) {
            py::array_t<std::uint8_t> out(h.current().num_actions());
            h.current().write_legal_mask(out.mutable_data());
            return out;
          },
          "1 where a move id is legal, as uint8.");

  py::class_<V>(m, (name + "Vector").c_str())
      .def(py::init([](const H& start, int n, std::uint64_t seed) {
             if (n < 1) throw InvalidOptionError("n must be at least 1, not " + std::to_string(n));
             if (start.current().outcome().over()) throw InvalidOptionError("the start position is a finished game");
             return new V(start.current(), n, seed);
           }),
           py::arg("start"), py::arg("n"), py::arg("seed") = 0)
      .def("random_actions",
           [](V& v) {
             const auto scope = v.use.enter(V::kInUse);
             py::array_t<std::int64_t> out(v.size());
             auto* o = out.mutable_data();
             py::gil_scoped_release release;
             v.random_actions(o);
             return out;
           })
      .def_property_readonly("size", [](const V& v) { return v.size(); })
      .def_property_readonly("num_actions", [](const V& v) { return v.num_actions(); })
      .def(
          "game", [](V& v, int i) {
            const auto scope = v.use.enter(V::kInUse);
            if (i < 0 || i >= v.size()) throw py::index_error("game index out of range");
            return H(v.game(i));
          },
          py::arg("i"))
      .def(
          "reset",
          [](V& v) {
            const auto scope = v.use.enter(V::kInUse);
            const auto s = v.shape();
            py::array_t<std::uint8_t> obs({v.size(), s.planes, s.rows, s.cols});
            py::array_t<std::uint8_t> masks({v.size(), v.num_actions()});
            py::array_t<std::int8_t> to_move(v.size());
            auto* o = obs.mutable_data();
            auto* mk = masks.mutable_data();
            auto* tm = to_move.mutable_data();
            {
              py::gil_scoped_release release;
              v.reset();
              v.write_all(o, mk, tm);
            }
            return py::make_tuple(obs, masks, to_move);
          })
      .def(
          "step",
          [](V& v, py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> actions,
             bool finals) -> py::tuple {
            if (actions.ndim() != 1 || actions.shape(0) != v.size())
              throw InvalidMoveError("actions must be a 1-d array of " + std::to_string(v.size()) + " ids, got " +
                                     std::to_string(actions.ndim()) + "-d with " + std::to_string(actions.size()) +
                                     " values");
            const auto scope = v.use.enter(V::kInUse);
            const auto s = v.shape();
            py::array_t<std::uint8_t> obs({v.size(), s.planes, s.rows, s.cols});
            py::array_t<float> rewards(v.size());
            py::array_t<std::uint8_t> terminated(v.size());
            py::array_t<std::uint8_t> masks({v.size(), v.num_actions()});
            py::array_t<std::int8_t> to_move(v.size());
            const std::int64_t* a = actions.data();
            auto* o = obs.mutable_data();
            auto* r = rewards.mutable_data();
            auto* t = terminated.mutable_data();
            auto* mk = masks.mutable_data();
            auto* tm = to_move.mutable_data();
            // With finals: the observations of the games that ended, before their reset (zeros elsewhere).
            py::array_t<std::uint8_t> final_obs(finals ? std::vector<py::ssize_t>{v.size(), s.planes, s.rows, s.cols}
                                                       : std::vector<py::ssize_t>{0});
            std::uint8_t* f = nullptr;
            if (finals) {
              f = final_obs.mutable_data();
              std::fill(f, f + final_obs.size(), std::uint8_t{0});
            }
            {
              py::gil_scoped_release release;
              v.step(a, r, t, o, mk, tm, f);
            }
            if (finals) return py::tuple(py::make_tuple(obs, rewards, terminated, masks, to_move, final_obs));
            return py::tuple(py::make_tuple(obs, rewards, terminated, masks, to_move));
          },
          py::arg("actions"), py::arg("finals") = false);
}

}  // namespace noughts::bindings
