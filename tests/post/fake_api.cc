#include "post/fake_api.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

namespace cobench::testing {
namespace {

// The slice of `items` for a 1-based page.
nlohmann::json page_of(const std::vector<nlohmann::json>& items, size_t page, size_t per_page) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = (page - 1) * per_page; i < std::min(items.size(), page * per_page); ++i) out.push_back(items[i]);
  return out;
}

size_t param(const httplib::Request& request, const char* name, size_t fallback) {
  return request.has_param(name) ? std::stoul(request.get_param_value(name)) : fallback;
}

}  // namespace

std::string Recorded::header(const std::string& name) const {
  auto found = headers.find(name);
  return found == headers.end() ? "" : found->second;
}

std::vector<nlohmann::json> make_notes(int count, int marked) {
  std::vector<nlohmann::json> out;
  for (int id = 1; id <= count; ++id)
    out.push_back({{"id", id}, {"body", id == marked ? "<!-- cobench-report -->\nold report" : fmt::format("LGTM {}", id)}});
  return out;
}

FakeApi::FakeApi() {
  // Also in absolute form ("http://host/api/..."), as clients send it through a proxy.
  const std::string proxied = R"((?:http://[^/]+)?)";
  const std::string gitlab = proxied + R"(/api/v4/projects/7/merge_requests/3/notes)";
  server_.Get(gitlab, [this](const httplib::Request& request, httplib::Response& response) {
    record(request);
    if (failing(response)) return;
    size_t page = param(request, "page", 1), per_page = param(request, "per_page", 20);
    bool last = page * per_page >= notes.size();
    response.set_header("X-Next-Page", last ? "" : std::to_string(page + 1));
    response.set_content(page_of(notes, page, per_page).dump(), "application/json");
  });
  auto create = [this](const httplib::Request& request, httplib::Response& response) {
    record(request);
    if (failing(response)) return;
    response.status = 201;
    response.set_content(R"({"id": 999})", "application/json");
  };
  auto update = [this](const httplib::Request& request, httplib::Response& response) {
    record(request);
    if (failing(response)) return;
    response.set_content(fmt::format(R"({{"id": {}}})", request.matches[1].str()), "application/json");
  };
  server_.Post(gitlab, create);
  server_.Put(gitlab + R"(/(\d+))", update);

  const std::string github = "/repos/octo/widgets/issues/12/comments";
  server_.Get(github, [this, github](const httplib::Request& request, httplib::Response& response) {
    record(request);
    if (failing(response)) return;
    size_t page = param(request, "page", 1), per_page = param(request, "per_page", 30);
    if (page * per_page < comments.size())
      response.set_header("Link", fmt::format("<{}{}?per_page={}&page={}>; rel=\"next\", <{}{}?page=1>; rel=\"first\"",
                                              url(), github, per_page, page + 1, url(), github));
    response.set_content(page_of(comments, page, per_page).dump(), "application/json");
  });
  server_.Post(github, create);
  server_.Patch(R"(/repos/octo/widgets/issues/comments/(\d+))", update);

  // A server that keeps the connection busy: a byte now and then, never
  // idle long enough for a per-read timeout, never done in time.
  server_.Get(R"(/trickle/.*)", [this](const httplib::Request& request, httplib::Response& response) {
    record(request);
    response.set_chunked_content_provider("application/json", [this](size_t offset, httplib::DataSink& sink) {
      if (offset >= static_cast<size_t>(kTrickleBytes) || !pause(kTrickleInterval)) {
        sink.done();
        return true;
      }
      return sink.write(offset == 0 ? "[" : " ", 1);
    });
  });
  // Far more than any list page: chunked (no length to judge it by) or with a declared length.
  const std::string chunk(64 * 1024, ' ');
  auto huge = [this, chunk](size_t offset, httplib::DataSink& sink) {
    if (offset >= kHugeBytes || stopping_) {
      sink.done();
      return true;
    }
    return sink.write(chunk.data(), std::min(chunk.size(), kHugeBytes - offset));
  };
  server_.Get(R"(/huge/.*)", [this, huge](const httplib::Request& request, httplib::Response& response) {
    record(request);
    response.set_chunked_content_provider("application/json", huge);
  });
  server_.Get(R"(/huge-declared/.*)", [this, chunk](const httplib::Request& request, httplib::Response& response) {
    record(request);
    response.set_content_provider(kHugeBytes, "application/json",
                                  [this, chunk](size_t offset, size_t length, httplib::DataSink& sink) {
                                    if (stopping_) return false;
                                    return sink.write(chunk.data(), std::min(chunk.size(), length));
                                  });
  });

  port_ = server_.bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

FakeApi::~FakeApi() {
  stopping_ = true;
  server_.stop();
  thread_.join();
}

std::string FakeApi::url() const { return fmt::format("http://127.0.0.1:{}", port_); }

std::vector<Recorded> FakeApi::requests() {
  std::lock_guard lock(mutex_);
  return requests_;
}

void FakeApi::fail_with(int status, std::string body) {
  std::lock_guard lock(mutex_);
  fail_status_ = status;
  fail_body_ = std::move(body);
}

void FakeApi::record(const httplib::Request& request) {
  std::lock_guard lock(mutex_);
  requests_.push_back({request.method, request.path, request.params, request.headers, request.body});
}

bool FakeApi::pause(std::chrono::milliseconds interval) {
  auto until = std::chrono::steady_clock::now() + interval;
  while (std::chrono::steady_clock::now() < until) {
    if (stopping_) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return !stopping_;
}

bool FakeApi::failing(httplib::Response& response) {
  std::lock_guard lock(mutex_);
  if (fail_status_ == 0) return false;
  response.status = fail_status_;
  response.set_content(fail_body_, "application/json");
  return true;
}

}  // namespace cobench::testing
