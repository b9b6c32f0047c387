// Compiles the shared precompiled header (cmake/PrecompiledHeaders.cmake).
