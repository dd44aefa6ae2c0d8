# SPDX-License-Identifier: MIT
# One INTERFACE target carries the language standard, the warnings and the strict Qt defines.
# Every target of the project links pd_build_settings and nothing sets flags elsewhere.
add_library(pd_build_settings INTERFACE)
target_compile_features(pd_build_settings INTERFACE cxx_std_20)
set(CMAKE_CXX_EXTENSIONS OFF)
# -Wshadow: a local that hides another (or a member, or a global such as environ) is a bug waiting for
# the next edit; -Wold-style-cast: casts say which conversion they mean (static_cast, reinterpret_cast).
target_compile_options(pd_build_settings INTERFACE
  -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Woverloaded-virtual -Wshadow -Wold-style-cast)
if(DEFINED ENV{CI} AND NOT "$ENV{CI}" STREQUAL "" AND NOT "$ENV{CI}" STREQUAL "false")
  target_compile_options(pd_build_settings INTERFACE -Werror)
endif()
# Under the sanitizers' instrumentation GCC 12's -Wmaybe-uninitialized gives false positives (CI hit one
# in std::swap of a struct holding std::optional<QString-bearing struct>, tsan preset). The dev preset
# keeps the warning, so real cases are still caught there.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_FLAGS MATCHES "-fsanitize=")
  target_compile_options(pd_build_settings INTERFACE -Wno-maybe-uninitialized)
endif()
target_compile_definitions(pd_build_settings INTERFACE
  QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING QT_NO_FOREACH
  QT_USE_QSTRINGBUILDER QT_NO_KEYWORDS
  PDCONSOLE_VERSION="${PROJECT_VERSION}")

# Build speed (docs/ci.md has the figures). mold links a test in 0.6 s where ld.bfd takes 3.4 s; there
# are ~130 executables per tree. Used whenever it is installed (scripts/setup installs it).
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=mold" PD_HAVE_MOLD)
if(PD_HAVE_MOLD)
  add_link_options(-fuse-ld=mold)
endif()
# PD_FAST_BUILD (on under CI): the libraries compile as unity batches of 8 sources (half the compiler
# time: the Qt and JSON headers are parsed once per batch) and debug info is line tables only (-g1: the
# file:line of a sanitizer report or a backtrace, ~20 % less compile time). Developers keep one object
# per source and full debug info unless they ask for it.
set(pd_ci_default OFF)
if(DEFINED ENV{CI} AND NOT "$ENV{CI}" STREQUAL "" AND NOT "$ENV{CI}" STREQUAL "false")
  set(pd_ci_default ON)
endif()
option(PD_FAST_BUILD "Unity batches for the libraries and line-table debug info (CI)" ${pd_ci_default})
if(PD_FAST_BUILD)
  target_compile_options(pd_build_settings INTERFACE -g1)
endif()
# Called after add_library() / add_executable() for the libraries and the multi-source programs.
function(pd_library_build_mode target)
  if(PD_FAST_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
