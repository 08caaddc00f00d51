# stencilc_tutorial_test(): one checked step of a tutorial lesson.
#
#   stencilc_tutorial_test(NAME <name> EXPECTED <file> COMMAND <cmd> [args...]
#                          [WORKING_DIRECTORY <dir>] [DEPENDS <targets>...]
#                          [EXPECT_EXIT <code>] [WITH_STDERR])
#
# Adds the ctest test `tutorial/<name>` (label `tutorial`): it runs the command
# and compares its standard output with EXPECTED (relative to the lesson's
# directory) through scripts/compare-output.py: lines must match exactly,
# except that a `{{regex}}` segment of an expected line matches a Python
# regular expression (timings, machine-dependent numbers). A mismatch prints a
# unified diff and fails the test.
#
# - COMMAND may use generator expressions ($<TARGET_FILE:stencilc>).
# - WORKING_DIRECTORY defaults to the repository root, so the paths a lesson's
#   text shows (`build/compiler/stencilc check docs/tutorial/...`) are the ones
#   the test runs and the ones diagnostics print.
# - DEPENDS: targets the command needs; they join the `tutorial` target, so
#   `ninja -C build tutorial` builds everything the lessons run.
# - EXPECT_EXIT: the exit status the command must end with (default 0), for a
#   step that shows an error.
# - WITH_STDERR: compare standard error too, after standard output (a
#   diagnostic goes to standard error).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(STENCILC_TUTORIAL_COMPARE "${CMAKE_CURRENT_LIST_DIR}/../../scripts/compare-output.py")
get_filename_component(STENCILC_TUTORIAL_COMPARE "${STENCILC_TUTORIAL_COMPARE}" ABSOLUTE)
get_filename_component(STENCILC_TUTORIAL_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)

if(NOT TARGET tutorial)
  add_custom_target(tutorial)
endif()

function(stencilc_tutorial_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "WITH_STDERR" "NAME;EXPECTED;WORKING_DIRECTORY;EXPECT_EXIT"
                        "COMMAND;DEPENDS")
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "stencilc_tutorial_test: unknown arguments: ${T_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT T_NAME OR NOT T_EXPECTED OR NOT T_COMMAND)
    message(FATAL_ERROR "stencilc_tutorial_test needs NAME, EXPECTED and COMMAND")
  endif()
  get_filename_component(expected "${T_EXPECTED}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${expected}")
    message(FATAL_ERROR "stencilc_tutorial_test(${T_NAME}): no expected output ${expected}")
  endif()
  if(NOT T_WORKING_DIRECTORY)
    set(T_WORKING_DIRECTORY "${STENCILC_TUTORIAL_ROOT}")
  endif()
  if(NOT DEFINED T_EXPECT_EXIT)
    set(T_EXPECT_EXIT 0)
  endif()
  set(options --expected "${expected}" --expect-exit ${T_EXPECT_EXIT})
  if(T_WITH_STDERR)
    list(APPEND options --with-stderr)
  endif()
  add_test(NAME tutorial/${T_NAME}
           COMMAND "${Python3_EXECUTABLE}" "${STENCILC_TUTORIAL_COMPARE}" ${options} -- ${T_COMMAND}
           WORKING_DIRECTORY "${T_WORKING_DIRECTORY}")
  set_tests_properties(tutorial/${T_NAME} PROPERTIES LABELS tutorial TIMEOUT 120)
  if(T_DEPENDS)
    add_dependencies(tutorial ${T_DEPENDS})
  endif()
endfunction()
