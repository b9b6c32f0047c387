// What `cobench post` reads from GitLab and GitHub: a list page (the marked
// note), a created note, an error body, the Link and X-Next-Page headers.
// Input: the Link header, a newline, the X-Next-Page header, a newline, the body.
#include <algorithm>
#include <string>

#include "fuzz_input.h"
#include "post/http_client.h"
#include "post/note_list.h"

namespace {

// The text up to the next newline (all of it when there is none); `rest` moves past it.
std::string take_line(std::string_view& rest) {
  size_t end = std::min(rest.find('\n'), rest.size());
  std::string line(rest.substr(0, end));
  rest.remove_prefix(std::min(end + 1, rest.size()));
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  std::string_view rest = fuzz::text_of(data, size);
  std::string link = take_line(rest);
  std::string next_page_header = take_line(rest);
  post::HttpResponse response;
  response.status = 200;
  response.body = std::string(rest);
  post::next_link(link);
  post::next_page(next_page_header, 1);
  post::api_message(response.body);
  fuzz::refusing_with<InfraError>([&] { post::marked_id(response, "notes list"); });
  fuzz::refusing_with<InfraError>([&] { post::created_id(response, "note creation"); });
  return 0;
}
