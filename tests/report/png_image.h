#pragma once
// Just enough PNG decoding (8-bit RGB/RGBA, non-interlaced, as Chromium
// writes screenshots) to tell a rendered page from a blank one.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace cobench::testing {

/// Decoded pixels as RGB triples, row-major.
struct PngImage {
  int width = 0;             ///< pixels
  int height = 0;            ///< pixels
  std::vector<uint8_t> rgb;  ///< width * height * 3 bytes
};

/// Decodes the file; throws std::runtime_error naming what is unsupported or broken.
PngImage decode_png(const std::filesystem::path& path);

/// How many distinct RGB colours the image uses.
size_t count_colours(const PngImage& image);

/// Fraction of pixels that differ from the top-left pixel (the background).
double non_background_fraction(const PngImage& image);

}  // namespace cobench::testing
