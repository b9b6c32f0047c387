#pragma once
// The message of the one-line error a parser or check gives bad input.
#include <string>

#include "core/errors.h"

namespace cobench::testing {

/// What `action` throws as an InputError; "no error" when it throws none.
std::string input_error_of(auto action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace cobench::testing
