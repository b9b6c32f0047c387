#include "job/console.h"

#include <cstdio>

namespace cobench::job {
namespace {

class Terminal : public Console {
 public:
  void line(std::string_view text) override {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  void block(std::string_view text) override {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  void warning(std::string_view text) override { to_stderr("warning: ", text); }
  void error(std::string_view text) override { to_stderr("error: ", text); }
  void note(std::string_view text) override { to_stderr("", text); }

 private:
  static void to_stderr(std::string_view kind, std::string_view text) {
    std::fprintf(stderr, "cobench: %.*s%.*s\n", static_cast<int>(kind.size()), kind.data(), static_cast<int>(text.size()),
                 text.data());
  }
};

Console* replaced = nullptr;

}  // namespace

Console& console() {
  static Terminal terminal;
  return replaced ? *replaced : terminal;
}

void set_console(Console* replacement) { replaced = replacement; }

}  // namespace cobench::job
