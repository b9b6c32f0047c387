# Installing cobench, and its Debian package (`make package`, CPack DEB):
#   /usr/bin/cobench
#   /usr/lib/cobench/libcobench_alloc_preload.so   (found as <exe>/../lib/cobench)
#   /usr/share/cobench/gitlab/cobench.yml, /usr/share/cobench/github/cobench.yml, Dockerfile
#   /usr/share/doc/cobench/README.md and the manual, /usr/share/doc/cobench/docs/*.md
#   /usr/share/man/man1/cobench.1.gz                (generated from --help: cmake/ManPage.cmake)
# The preload library's own install rule is in src/alloc/CMakeLists.txt.
include(GNUInstallDirs)

install(TARGETS cobench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/ci/gitlab/cobench.yml DESTINATION ${CMAKE_INSTALL_DATADIR}/cobench/gitlab)
install(FILES ${PROJECT_SOURCE_DIR}/ci/github/cobench.yml DESTINATION ${CMAKE_INSTALL_DATADIR}/cobench/github)
install(FILES ${PROJECT_SOURCE_DIR}/ci/Dockerfile DESTINATION ${CMAKE_INSTALL_DATADIR}/cobench)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")

# cobench(1) from the CLI's own help, at build time (Debian: help2man); every
# build that has help2man makes it, so the package and the tests see the same page.
find_program(COBENCH_HELP2MAN help2man)
find_program(COBENCH_GZIP gzip)
if(COBENCH_HELP2MAN AND COBENCH_GZIP)
  set(COBENCH_MAN_PAGE ${CMAKE_BINARY_DIR}/man/cobench.1)
  add_custom_command(
    OUTPUT ${COBENCH_MAN_PAGE} ${COBENCH_MAN_PAGE}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -DCOBENCH=$<TARGET_FILE:cobench> -DHELP2MAN=${COBENCH_HELP2MAN} -DGZIP=${COBENCH_GZIP}
            -DINCLUDE=${PROJECT_SOURCE_DIR}/cmake/cobench.h2m -DOUT=${COBENCH_MAN_PAGE}
            -P ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
    DEPENDS cobench ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake ${PROJECT_SOURCE_DIR}/cmake/cobench.h2m
    COMMENT "cobench(1) from cobench --help")
  add_custom_target(cobench_man_page ALL DEPENDS ${COBENCH_MAN_PAGE}.gz)
  install(FILES ${COBENCH_MAN_PAGE}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man or gzip not found: no man page (Debian: apt-get install help2man)")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cobench)
set(CPACK_PACKAGE_VENDOR "cobench")
set(CPACK_PACKAGE_CONTACT "cobench maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "benchmark a merge request: base and head built side by side, run interleaved, judged by ratio")
set(CPACK_PACKAGE_DESCRIPTION
    "cobench finds the Google Benchmark targets a diff can reach, builds the merge base and the head in two git
worktrees, runs both interleaved in one job and reports per benchmark the head/base ratio with a confidence
interval and a verdict against a budget. Includes the GitLab and GitHub CI templates under /usr/share/cobench.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # cobench_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The shared libraries it links (fmt, cpp-httplib, libstdc++) from dpkg-shlibdeps; then what
# `cobench run` starts: git for the worktrees, CMake, a build tool and a C++ compiler to
# configure and build both sides (apt in containers often leaves Recommends out).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "git, cmake, make | ninja-build, g++ | c++-compiler")
# What most benchmark projects, and `cobench demo`, build with: Google Benchmark; Ninja;
# and ccache, to share objects between the sides.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libbenchmark-dev, ninja-build, ccache")
include(CPack)
