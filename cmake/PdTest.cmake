# SPDX-License-Identifier: MIT
# pd_add_test(<name> SOURCES <files...> LIBS <targets...> [LABEL core|sim|gui] [ENV VAR=VALUE...]
#             [TIMEOUT seconds])
# Registers one Qt Test executable as one CTest test. GUI tests run on the offscreen platform.
function(pd_add_test name)
  cmake_parse_arguments(T "" "LABEL;TIMEOUT" "SOURCES;LIBS;ENV" ${ARGN})
  if(NOT T_LABEL)
    set(T_LABEL core)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} Qt6::Test pd_build_settings)
  target_compile_definitions(${name} PRIVATE
    PD_SOURCE_DIR="${PROJECT_SOURCE_DIR}" PD_BINARY_DIR="${PROJECT_BINARY_DIR}")
  add_test(NAME ${name} COMMAND ${name})
  set(env "QT_QPA_PLATFORM=offscreen" ${T_ENV})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABEL}" TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${env}")
endfunction()
