#include "report/png_image.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>

#include <zlib.h>

namespace cobench::testing {
namespace {

uint32_t be32(const std::string& data, size_t at) {
  auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(data[at + i])); };
  return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
}

std::vector<uint8_t> inflate_all(const std::string& compressed) {
  std::vector<uint8_t> out(compressed.size() * 4 + 1024);
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) throw std::runtime_error("png: inflateInit failed");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    if (stream.total_out == out.size()) out.resize(out.size() * 2);
    stream.next_out = out.data() + stream.total_out;
    stream.avail_out = static_cast<uInt>(out.size() - stream.total_out);
    status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) {
      inflateEnd(&stream);
      throw std::runtime_error("png: corrupt image data");
    }
  }
  out.resize(stream.total_out);
  inflateEnd(&stream);
  return out;
}

uint8_t paeth(int a, int b, int c) {
  int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return static_cast<uint8_t>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

}  // namespace

PngImage decode_png(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < 33 || data.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) throw std::runtime_error("png: not a PNG file");
  PngImage image;
  int depth = 0, colour = 0, interlace = 0;
  std::string idat;
  for (size_t at = 8; at + 8 <= data.size();) {
    uint32_t length = be32(data, at);
    std::string type = data.substr(at + 4, 4);
    if (at + 12 + length > data.size()) throw std::runtime_error("png: truncated chunk " + type);
    if (type == "IHDR") {
      image.width = static_cast<int>(be32(data, at + 8));
      image.height = static_cast<int>(be32(data, at + 12));
      depth = static_cast<uint8_t>(data[at + 16]);
      colour = static_cast<uint8_t>(data[at + 17]);
      interlace = static_cast<uint8_t>(data[at + 20]);
    } else if (type == "IDAT") {
      idat += data.substr(at + 8, length);
    }
    at += 12 + length;
  }
  if (depth != 8 || (colour != 2 && colour != 6) || interlace != 0)
    throw std::runtime_error("png: only 8-bit non-interlaced RGB/RGBA is supported");
  size_t channels = colour == 6 ? 4 : 3, stride = image.width * channels;
  std::vector<uint8_t> raw = inflate_all(idat);
  if (raw.size() < (stride + 1) * image.height) throw std::runtime_error("png: image data too short");
  std::vector<uint8_t> previous(stride, 0), current(stride);
  image.rgb.reserve(static_cast<size_t>(image.width) * image.height * 3);
  for (int y = 0; y < image.height; ++y) {
    const uint8_t* line = raw.data() + y * (stride + 1);
    uint8_t filter = line[0];
    for (size_t x = 0; x < stride; ++x) {
      int a = x >= channels ? current[x - channels] : 0, b = previous[x], c = x >= channels ? previous[x - channels] : 0;
      int predictor = filter == 1 ? a : filter == 2 ? b : filter == 3 ? (a + b) / 2 : filter == 4 ? paeth(a, b, c) : 0;
      current[x] = static_cast<uint8_t>(line[1 + x] + predictor);
    }
    for (int x = 0; x < image.width; ++x)
      image.rgb.insert(image.rgb.end(), current.begin() + x * channels, current.begin() + x * channels + 3);
    std::swap(previous, current);
  }
  return image;
}

size_t count_colours(const PngImage& image) {
  std::set<uint32_t> colours;
  for (size_t i = 0; i + 2 < image.rgb.size(); i += 3)
    colours.insert(uint32_t{image.rgb[i]} << 16 | uint32_t{image.rgb[i + 1]} << 8 | image.rgb[i + 2]);
  return colours.size();
}

double non_background_fraction(const PngImage& image) {
  if (image.rgb.size() < 3) return 0;
  size_t differing = 0, pixels = image.rgb.size() / 3;
  for (size_t i = 0; i < pixels; ++i) differing += std::memcmp(&image.rgb[i * 3], image.rgb.data(), 3) != 0;
  return static_cast<double>(differing) / pixels;
}

}  // namespace cobench::testing
