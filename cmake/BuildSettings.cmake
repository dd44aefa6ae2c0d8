# SPDX-License-Identifier: MIT
# One INTERFACE target carries the language standard, the warnings and the strict Qt defines.
# Every target of the project links pd_build_settings and nothing sets flags elsewhere.
add_library(pd_build_settings INTERFACE)
target_compile_features(pd_build_settings INTERFACE cxx_std_20)
set(CMAKE_CXX_EXTENSIONS OFF)
target_compile_options(pd_build_settings INTERFACE
  -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Woverloaded-virtual)
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
