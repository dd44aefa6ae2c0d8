# SPDX-License-Identifier: MIT
# pd_add_test(<name> SOURCES <files...> LIBS <targets...> [LABEL core|sim|ssh|gui] [ENV VAR=VALUE...]
#             [TIMEOUT seconds] [DEPENDS <targets...>] [RESOURCE_LOCK <lock>] [THREADS])
# Registers one Qt Test executable as one CTest test. GUI tests run on the offscreen platform.
#   DEPENDS        programs the test runs as child processes (pdctl, pdsim), built before it.
#   RESOURCE_LOCK  tests holding the same lock (fixed loopback addresses) never run at the same time.
#   THREADS        the code under test runs threads of its own or starts a program that does (SSH pool,
#                  poll loop, simulator, pdctl): the test also gets the label "threads", the ones the
#                  ThreadSanitizer preset builds and runs (PD_ONLY_THREADED_TESTS). A test without it
#                  runs on one thread (the Qt Test watchdog aside): TSan has nothing to check there.
option(PD_ONLY_THREADED_TESTS "Build and register only the tests marked THREADS (the tsan preset)" OFF)

function(pd_add_test name)
  cmake_parse_arguments(T "THREADS" "LABEL;TIMEOUT;RESOURCE_LOCK" "SOURCES;LIBS;ENV;DEPENDS" ${ARGN})
  if(PD_ONLY_THREADED_TESTS AND NOT T_THREADS)
    return()
  endif()
  if(NOT T_LABEL)
    set(T_LABEL core)
  endif()
  set(labels ${T_LABEL})
  if(T_THREADS)
    list(APPEND labels threads)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} Qt6::Test pd_build_settings)
  target_compile_definitions(${name} PRIVATE
    PD_SOURCE_DIR="${PROJECT_SOURCE_DIR}" PD_BINARY_DIR="${PROJECT_BINARY_DIR}")
  if(T_DEPENDS)
    add_dependencies(${name} ${T_DEPENDS})
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set(env "QT_QPA_PLATFORM=offscreen" ${T_ENV})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${env}")
  if(T_RESOURCE_LOCK)
    set_tests_properties(${name} PROPERTIES RESOURCE_LOCK ${T_RESOURCE_LOCK})
  endif()
endfunction()
