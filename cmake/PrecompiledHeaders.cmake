# Precompiled headers. The header-only libraries cobench uses (nlohmann-json,
# fmt's templates, CLI11, GoogleTest) cost 2-7 s of parsing in every
# translation unit that includes them; compiled once here, every target reuses
# them. Targets reuse a PCH only when built with the same flags (same C++
# standard, PIC-ness), so the counting allocator (C++17, PIC) builds without.
set(COBENCH_PCH_HEADERS
  <algorithm> <filesystem> <functional> <map> <memory> <optional> <regex> <set> <string>
  <string_view> <vector> <fmt/format.h> <fmt/ranges.h> <nlohmann/json.hpp>)

add_library(cobench_pch OBJECT ${CMAKE_CURRENT_LIST_DIR}/pch.cc)
target_link_libraries(cobench_pch PRIVATE nlohmann_json::nlohmann_json fmt::fmt)
target_precompile_headers(cobench_pch PRIVATE ${COBENCH_PCH_HEADERS})

# cobench_use_pch(TARGET [CLI] [TEST]): TARGET reuses the shared PCH, or
# (CLI) builds its own with CLI11 added, or (TEST) reuses the tests' PCH. In
# a unity build the CLI stage is one translation unit and main.cc another:
# parsing CLI11 in those two costs less than precompiling it for them.
function(cobench_use_pch target)
  cmake_parse_arguments(P "CLI;TEST" "" "" ${ARGN})
  if(NOT COBENCH_PCH)
    return()
  endif()
  if(P_CLI AND COBENCH_UNITY)
    set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM cobench_pch)
  elseif(P_CLI)
    target_precompile_headers(${target} PRIVATE ${COBENCH_PCH_HEADERS} <CLI/CLI.hpp>)
  elseif(P_TEST)
    set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM cobench_test_pch)
  else()
    set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM cobench_pch)
  endif()
endfunction()
