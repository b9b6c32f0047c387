#pragma once
// A real HTTP server on 127.0.0.1 playing GitLab's notes API and GitHub's
// issue-comments API, recording every request it receives.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

namespace cobench::testing {

/// One request as the server saw it.
struct Recorded {
  std::string method;        ///< GET, POST, PUT, PATCH
  std::string path;          ///< without the query
  httplib::Params params;    ///< the query
  httplib::Headers headers;  ///< as sent
  std::string body;          ///< as sent
  std::string header(const std::string& name) const;  ///< a header's value or ""
};

/// Serves `notes` (GitLab, X-Next-Page paging) and `comments` (GitHub, Link paging).
/// Any GET under /trickle answers one byte every kTrickleInterval, under /huge
/// an endless-looking chunked body, and under /huge-declared a declared 64 MiB
/// body: each stops when the client goes away, after a bounded amount, or when
/// the server stops.
class FakeApi {
 public:
  FakeApi();   ///< starts listening on a free port
  ~FakeApi();  ///< stops and joins the server thread
  std::string url() const;              ///< http://127.0.0.1:PORT
  std::vector<Recorded> requests();     ///< in arrival order
  void fail_with(int status, std::string body);  ///< every request answers this from now on

  std::vector<nlohmann::json> notes;     ///< GitLab MR 3 of project 7
  std::vector<nlohmann::json> comments;  ///< GitHub PR 12 of octo/widgets

  static constexpr auto kTrickleInterval = std::chrono::milliseconds(500);  ///< between two bytes
  static constexpr int kTrickleBytes = 240;                               ///< then the body ends
  static constexpr size_t kHugeBytes = size_t{64} << 20;                   ///< /huge and /huge-declared

 private:
  void record(const httplib::Request& request);
  bool failing(httplib::Response& response);
  /// Waits `interval` unless the server stops first; false then.
  bool pause(std::chrono::milliseconds interval);
  std::atomic<bool> stopping_ = false;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mutex_;
  std::vector<Recorded> requests_;
  int fail_status_ = 0;
  std::string fail_body_;
};

/// `count` unrelated comments/notes with ids from 1, and the marker in the one with id `marked` (0: none).
std::vector<nlohmann::json> make_notes(int count, int marked);

}  // namespace cobench::testing
