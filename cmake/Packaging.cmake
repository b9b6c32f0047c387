# Installing cobench, and its Debian package (`make package`, CPack DEB):
#   /usr/bin/cobench
#   /usr/lib/cobench/libcobench_alloc_preload.so   (found as <exe>/../lib/cobench)
#   /usr/share/cobench/gitlab/cobench.yml, /usr/share/cobench/github/cobench.yml, Dockerfile
#   /usr/share/doc/cobench/README.md
# The preload library's own install rule is in src/alloc/CMakeLists.txt.
include(GNUInstallDirs)

install(TARGETS cobench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/ci/gitlab/cobench.yml DESTINATION ${CMAKE_INSTALL_DATADIR}/cobench/gitlab)
install(FILES ${PROJECT_SOURCE_DIR}/ci/github/cobench.yml DESTINATION ${CMAKE_INSTALL_DATADIR}/cobench/github)
install(FILES ${PROJECT_SOURCE_DIR}/ci/Dockerfile DESTINATION ${CMAKE_INSTALL_DATADIR}/cobench)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

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
