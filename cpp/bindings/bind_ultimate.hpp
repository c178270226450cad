#pragma once
#include <pybind11/pybind11.h>

namespace noughts::bindings {
void bind_ultimate(pybind11::module_& m);
}
