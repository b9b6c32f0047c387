#pragma once
// A small JSON-over-HTTP(S) client for the two CI APIs, on cpp-httplib. Every
// error is one line naming method and URL, with the token and any
// user:password@ of the URL redacted. All requests of one client share one
// deadline, answers are size-capped, and SIGINT/SIGTERM end the request in flight.
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "post/post.h"

namespace httplib {
class Client;
}

namespace cobench::post {

/// A response with a 2xx status; headers keyed in lower case.
struct HttpResponse {
  int status = 0;                               ///< HTTP status
  std::string body;                             ///< raw body
  std::map<std::string, std::string> headers;  ///< lower-case names

  /// The body as JSON; throws InfraError naming `what` when it is not JSON.
  nlohmann::json json(const std::string& what) const;
  /// A header's value or "".
  std::string header(const std::string& lower_case_name) const;
};

/// One API base URL ("https://gitlab.com/api/v4") with fixed headers.
class ApiClient {
 public:
  /// Throws InputError (naming `variable`) when base_url is not
  /// http(s)://[user[:password]@]host[:port][/path]. A user:password@ is sent as
  /// HTTP basic authentication (unless a header already authorizes) and never shown.
  /// Honours HTTPS_PROXY / HTTP_PROXY and NO_PROXY (either case), as CI runners behind a proxy set them.
  /// The deadline of `limits` starts now and covers every request of this client.
  ApiClient(const std::string& variable, const std::string& base_url,
            std::vector<std::pair<std::string, std::string>> headers, std::string secret, const PostLimits& limits);
  ~ApiClient();
  ApiClient(const ApiClient&) = delete;
  ApiClient& operator=(const ApiClient&) = delete;

  /// GET; `path` is relative to the base URL's path ("/projects/1/notes?page=2").
  HttpResponse get(const std::string& path);
  /// POST a JSON body (create).
  HttpResponse post(const std::string& path, const nlohmann::json& body);
  /// PUT a JSON body (GitLab update).
  HttpResponse put(const std::string& path, const nlohmann::json& body);
  /// PATCH a JSON body (GitHub update).
  HttpResponse patch(const std::string& path, const nlohmann::json& body);

  /// Turns an absolute URL on this API (a pagination link) into a path for get();
  /// throws InfraError when it points elsewhere, so the token never leaves the API host.
  std::string path_of(const std::string& absolute_url) const;

 private:
  HttpResponse send(const std::string& method, const std::string& path, const std::string* body);
  std::string redact(std::string text) const;

  std::string origin_;  // scheme://host[:port], without user:password@
  std::string prefix_;  // "/api/v4" or ""
  std::vector<std::pair<std::string, std::string>> headers_;
  std::vector<std::string> secrets_;  // the token and the URL's credentials, longest first
  PostLimits limits_;
  std::chrono::steady_clock::time_point deadline_;
  std::unique_ptr<httplib::Client> client_;
};

/// The API's own words from an error body ("403 Forbidden", "Resource not
/// accessible by integration"): its JSON "message", else the body, on one line.
std::string api_message(const std::string& body);

/// `url` with its user:password@ (if any) shown as "[credentials]@", for messages.
std::string without_credentials(const std::string& url);

/// Percent-encodes a URL path segment ("group/project" -> "group%2Fproject").
std::string encode_segment(const std::string& text);

}  // namespace cobench::post
