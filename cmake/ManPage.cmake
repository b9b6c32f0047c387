# cobench(1), generated from the CLI's own help so it cannot drift from the
# flags: help2man renders `cobench --help` and `--version` with the sections
# of cmake/cobench.h2m, then each subcommand's `cobench COMMAND --help`
# becomes one section of its own ("COBENCH RUN", ...), placed before EXIT
# STATUS. Run at build time (cmake/Packaging.cmake):
#
#   cmake -DCOBENCH=build/cobench -DHELP2MAN=/usr/bin/help2man -DGZIP=/usr/bin/gzip
#         -DINCLUDE=cmake/cobench.h2m -DOUT=build/man/cobench.1 -P cmake/ManPage.cmake
#
# writes OUT and OUT.gz (what the package installs).
foreach(var COBENCH HELP2MAN GZIP INCLUDE OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "ManPage.cmake: -D${var}=... is required")
  endif()
endforeach()

# The subcommands as `cobench --help` lists them, in its order.
execute_process(COMMAND ${COBENCH} --help OUTPUT_VARIABLE root_help RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ManPage.cmake: ${COBENCH} --help exited with ${status}")
endif()
string(REGEX REPLACE ".*\nSubcommands:\n" "" listed "${root_help}")
string(REGEX MATCHALL "(^|\n)  [a-z]+ " names "${listed}")
set(subcommands "")
foreach(name IN LISTS names)
  string(STRIP "${name}" name)
  list(APPEND subcommands ${name})
endforeach()
if(NOT subcommands)
  message(FATAL_ERROR "ManPage.cmake: no subcommands found in `cobench --help`")
endif()

# help2man's page for one --help text ("" for the root, else "run --help").
function(help2man_page help_option out_var)
  set(args --no-info --version-option=--version)
  if(help_option)
    list(APPEND args "--help-option=${help_option}")
  else()
    list(APPEND args "--include=${INCLUDE}"
         "--name=benchmark a merge request: base and head built side by side, run interleaved, judged by ratio")
  endif()
  execute_process(COMMAND ${HELP2MAN} ${args} ${COBENCH} OUTPUT_VARIABLE page ERROR_VARIABLE error
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ManPage.cmake: help2man ${help_option} failed (${status}): ${error}")
  endif()
  set(${out_var} "${page}" PARENT_SCOPE)
endfunction()

help2man_page("" page)
set(sections "")
foreach(name IN LISTS subcommands)
  help2man_page("${name} --help" sub)
  # Its synopsis, then everything from the description on, one level down.
  string(REGEX MATCH "\n\\.SH SYNOPSIS\n(.*)\n\\.SH DESCRIPTION\n" synopsis "${sub}")
  set(synopsis "${CMAKE_MATCH_1}")
  string(FIND "${sub}" "\n.SH DESCRIPTION\n" at)
  math(EXPR at "${at} + 17")
  string(SUBSTRING "${sub}" ${at} -1 body)
  string(REPLACE "\n.SH " "\n.SS " body "\n${body}")
  string(TOUPPER "${name}" upper)
  string(APPEND sections ".SH \"COBENCH ${upper}\"\n${synopsis}\n.PP${body}")
endforeach()

string(FIND "${page}" "\n.SH \"EXIT STATUS\"" at)
if(at EQUAL -1)
  message(FATAL_ERROR "ManPage.cmake: no EXIT STATUS section (from ${INCLUDE}) to put the subcommands before")
endif()
string(SUBSTRING "${page}" 0 ${at} head)
string(SUBSTRING "${page}" ${at} -1 tail)
file(WRITE ${OUT} "${head}\n${sections}${tail}")
execute_process(COMMAND ${GZIP} -9 -n -c ${OUT} OUTPUT_FILE ${OUT}.gz RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ManPage.cmake: gzip failed (${status})")
endif()
