// The noughts.Player members, for the properties read in every loop of a
// game (to_move, winner). pybind11 casts a native enum by calling its Python
// class, which costs several times a plain attribute read; the two members
// are looked up once, when the module is made, and shared.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/typing.h>

#include <optional>
#include <utility>

#include "noughts/player.hpp"

namespace noughts::bindings {

namespace py = pybind11;

// Held for the life of the process (a module is never unloaded).
inline PyObject*& player_member(Player p) noexcept {
  static PyObject* members[2] = {nullptr, nullptr};
  return members[static_cast<int>(p)];
}

// Called once the Player class is made, before any game is bound.
inline void remember_players(py::handle player_class) {
  player_member(Player::X) = py::object(player_class.attr("X")).release().ptr();
  player_member(Player::O) = py::object(player_class.attr("O")).release().ptr();
}

// A Player member as a Python object, named noughts.Player in signatures
// (a plain py::object would read `object`).
class PlayerObject : public py::object {
 public:
  using py::object::object;
  explicit PlayerObject(py::object o) : py::object(std::move(o)) {}
};

inline PlayerObject player_object(Player p) {
  return PlayerObject(py::reinterpret_borrow<py::object>(player_member(p)));
}

// The winner: a member, or None (`noughts.Player | None` in signatures).
inline py::typing::Optional<PlayerObject> player_object(std::optional<Player> p) {
  return p ? py::typing::Optional<PlayerObject>(player_object(*p)) : py::typing::Optional<PlayerObject>(py::none());
}

}  // namespace noughts::bindings

template <>
struct pybind11::detail::handle_type_name<noughts::bindings::PlayerObject> {
  static constexpr auto name = const_name("noughts.Player");
};
