#include "post/http_client.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/text.h"
#include "core/parse.h"
#include "formats/json_text.h"
#include "process/signals.h"

namespace cobench::post {
namespace {

using Clock = std::chrono::steady_clock;

// Per request, each bounding one wait on the socket; the post's deadline bounds them all.
constexpr time_t kConnectTimeout = 10;
constexpr time_t kReadTimeout = 30;
constexpr time_t kWriteTimeout = 30;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string percent_decode(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Ends one request from outside when the post's deadline passes or SIGINT/SIGTERM
// arrives, by shutting its socket down: a connect, TLS handshake, read or write
// blocked on it then returns at once. httplib's own timeouts bound each wait,
// not the request (a server trickling a byte at a time never trips them), and it
// retries poll() on EINTR, so the signal alone would not wake it. A host name
// still being resolved cannot be interrupted; the connect that follows can.
class RequestWatch {
 public:
  enum class Stop { None, Deadline, Cancelled };

  explicit RequestWatch(Clock::time_point deadline) : deadline_(deadline), thread_([this] { watch(); }) {}

  ~RequestWatch() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
    if (socket_ >= 0) ::close(socket_);
  }

  RequestWatch(const RequestWatch&) = delete;
  RequestWatch& operator=(const RequestWatch&) = delete;

  // httplib's socket-options hook, called for each socket before it connects.
  // A duplicate stays valid however and whenever httplib closes its own.
  void adopt(int socket) {
    std::lock_guard lock(mutex_);
    if (socket_ >= 0) ::close(socket_);
    socket_ = ::fcntl(socket, F_DUPFD_CLOEXEC, 0);
    if (stop_ != Stop::None) shut_down();
  }

  Stop stopped() const {
    std::lock_guard lock(mutex_);
    return stop_;
  }

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!done_) {
      if (signals::cancellation_requested()) stop_ = Stop::Cancelled;
      else if (Clock::now() >= deadline_) stop_ = Stop::Deadline;
      if (stop_ != Stop::None) {
        shut_down();  // and adopt() shuts down any socket created later
        return;
      }
      wake_.wait_for(lock, std::chrono::milliseconds(50));
    }
  }

  void shut_down() {
    if (socket_ >= 0) ::shutdown(socket_, SHUT_RDWR);
  }

  const Clock::time_point deadline_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  Stop stop_ = Stop::None;
  int socket_ = -1;
  std::thread thread_;  // last: starts once the rest is initialized
};

std::string environment(const char* upper, const char* lower_name) {
  for (const char* name : {lower_name, upper})
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') return value;
  return "";
}

// NO_PROXY: comma-separated hosts or domain suffixes (".corp", "corp"), or "*".
bool bypasses_proxy(const std::string& host) {
  std::string list = environment("NO_PROXY", "no_proxy");
  for (size_t start = 0; start <= list.size();) {
    size_t end = std::min(list.find(',', start), list.size());
    std::string entry = list.substr(start, end - start);
    entry.erase(0, entry.find_first_not_of(' '));
    entry.erase(entry.find_last_not_of(' ') + 1);
    if (!entry.empty() && entry.front() == '.') entry.erase(0, 1);
    if (entry == "*" || entry == host ||
        (!entry.empty() && host.size() > entry.size() && host.ends_with("." + entry)))
      return true;
    start = end + 1;
  }
  return false;
}

// Applies the scheme's proxy variable ("http://user:pass@proxy:3128") unless NO_PROXY covers the host.
void configure_proxy(httplib::Client& client, const std::string& scheme, const std::string& host) {
  std::string proxy = scheme == "https" ? environment("HTTPS_PROXY", "https_proxy") : environment("HTTP_PROXY", "http_proxy");
  if (proxy.empty() || bypasses_proxy(host)) return;
  if (size_t scheme_end = proxy.find("://"); scheme_end != std::string::npos) proxy.erase(0, scheme_end + 3);
  proxy = proxy.substr(0, proxy.find('/'));
  if (size_t at = proxy.rfind('@'); at != std::string::npos) {
    std::string credentials = proxy.substr(0, at);
    size_t colon = credentials.find(':');
    client.set_proxy_basic_auth(credentials.substr(0, colon), colon == std::string::npos ? "" : credentials.substr(colon + 1));
    proxy.erase(0, at + 1);
  }
  size_t colon = proxy.rfind(':');
  auto port = colon == std::string::npos ? std::nullopt : parse_number(proxy.substr(colon + 1));
  client.set_proxy(proxy.substr(0, colon), port ? static_cast<int>(*port) : 80);
}

std::string describe(httplib::Error error) {
  switch (error) {
    case httplib::Error::Connection: return "could not connect";
    case httplib::Error::ConnectionTimeout: return "connection timed out";
    case httplib::Error::Read: return "no complete response (read failed or timed out)";
    case httplib::Error::Write: return "sending the request failed";
    case httplib::Error::SSLConnection: return "TLS handshake failed";
    case httplib::Error::SSLLoadingCerts: return "cannot load the system CA certificates";
    case httplib::Error::SSLServerVerification: return "TLS certificate verification failed";
    default: return "request failed (" + httplib::to_string(error) + ")";
  }
}

}  // namespace

std::string api_message(const std::string& body) {
  std::string detail;
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(body, formats::depth_limit("error body"), false);
  } catch (const InputError&) {
    // Nested too deep to show: the body itself (shortened by the caller) says enough.
  }
  if (json.is_object() && json.contains("message")) {
    const auto& message = json["message"];
    detail = message.is_string() ? message.get<std::string>() : message.dump();
  } else {
    detail = body;
  }
  std::replace_if(detail.begin(), detail.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return detail;
}

nlohmann::json HttpResponse::json(const std::string& what) const {
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(body, formats::depth_limit(what), false);
  } catch (const InputError& e) {
    throw InfraError(e.what());  // the API's answer, not the user's input
  }
  if (parsed.is_discarded()) throw InfraError(what + ": the response is not JSON");
  return parsed;
}

std::string HttpResponse::header(const std::string& lower_case_name) const {
  auto found = headers.find(lower_case_name);
  return found == headers.end() ? "" : found->second;
}

ApiClient::ApiClient(const std::string& variable, const std::string& base_url,
                     std::vector<std::pair<std::string, std::string>> headers, std::string secret,
                     const PostLimits& limits)
    : headers_(std::move(headers)), limits_(limits) {
  size_t scheme_end = base_url.find("://");
  std::string scheme = scheme_end == std::string::npos ? "" : lower(base_url.substr(0, scheme_end));
  size_t authority = scheme_end == std::string::npos ? std::string::npos : scheme_end + 3;
  size_t path_start = authority == std::string::npos ? std::string::npos : base_url.find('/', authority);
  std::string host_port = authority == std::string::npos ? "" : base_url.substr(authority, path_start - authority);
  std::string credentials;
  if (size_t at = host_port.rfind('@'); at != std::string::npos) {
    credentials = host_port.substr(0, at);
    host_port.erase(0, at + 1);
  }
  if ((scheme != "http" && scheme != "https") || host_port.empty())
    throw InputError(fmt::format("{}: not an http(s) URL: '{}'", variable, without_credentials(base_url)));
  origin_ = scheme + "://" + host_port;
  prefix_ = path_start == std::string::npos ? "" : base_url.substr(path_start);
  while (!prefix_.empty() && prefix_.back() == '/') prefix_.pop_back();
  client_ = std::make_unique<httplib::Client>(origin_);
  // A connection the server (or the deadline) closed while a request is being
  // written is an error to report, not a reason for SIGPIPE to kill cobench.
  std::signal(SIGPIPE, SIG_IGN);
  secrets_ = {std::move(secret)};
  if (!credentials.empty()) {
    // "user:password" (GitLab's "oauth2:TOKEN"), or a bare "TOKEN" as the user (GitHub's form).
    size_t colon = credentials.find(':');
    std::string user = percent_decode(credentials.substr(0, colon));
    std::string password = colon == std::string::npos ? "" : percent_decode(credentials.substr(colon + 1));
    client_->set_basic_auth(user, password);
    std::string raw_secret = colon == std::string::npos ? credentials : credentials.substr(colon + 1);
    secrets_.insert(secrets_.end(), {raw_secret, colon == std::string::npos ? user : password, credentials});
  }
  std::erase_if(secrets_, [](const std::string& text) { return text.empty(); });
  std::sort(secrets_.begin(), secrets_.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  configure_proxy(*client_, scheme, lower(host_port.substr(0, host_port.find(':'))));
  client_->set_connection_timeout(kConnectTimeout);
  client_->set_read_timeout(kReadTimeout);
  client_->set_write_timeout(kWriteTimeout);
  deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(limits_.timeout_seconds));
}

ApiClient::~ApiClient() = default;

HttpResponse ApiClient::get(const std::string& path) { return send("GET", path, nullptr); }

HttpResponse ApiClient::post(const std::string& path, const nlohmann::json& body) {
  std::string text = body.dump();
  return send("POST", path, &text);
}

HttpResponse ApiClient::put(const std::string& path, const nlohmann::json& body) {
  std::string text = body.dump();
  return send("PUT", path, &text);
}

HttpResponse ApiClient::patch(const std::string& path, const nlohmann::json& body) {
  std::string text = body.dump();
  return send("PATCH", path, &text);
}

std::string ApiClient::path_of(const std::string& absolute_url) const {
  std::string base = origin_ + prefix_;
  bool on_api = absolute_url.compare(0, base.size(), base) == 0 &&
                (absolute_url.size() == base.size() || absolute_url[base.size()] == '/' ||
                 absolute_url[base.size()] == '?');
  if (!on_api)
    throw InfraError(fmt::format("pagination link '{}' leaves {}; not following it",
                                 redact(without_credentials(absolute_url)), base));
  return absolute_url.substr(base.size());
}

HttpResponse ApiClient::send(const std::string& method, const std::string& path, const std::string* body) {
  std::string full_path = prefix_ + path;
  std::string what = fmt::format("{} {}{}", method, origin_, redact(full_path));
  signals::throw_if_cancelled();
  const std::string deadline_passed =
      fmt::format("{}: stopped: the deadline of {} for the whole post passed (cobench post --timeout)", what,
                  format_duration(limits_.timeout_seconds));
  if (Clock::now() >= deadline_) throw InfraError(deadline_passed);

  httplib::Request request;
  request.method = method;
  request.path = full_path;
  request.headers = httplib::Headers(headers_.begin(), headers_.end());
  if (body != nullptr) {
    request.body = *body;
    request.set_header("Content-Type", "application/json");
  }
  HttpResponse response;
  bool too_large = false;
  // A declared length over the cap is refused before any of the body is read;
  // without one, reading stops at the first byte past the cap.
  request.response_handler = [&](const httplib::Response& head) {
    auto length = parse_number(head.get_header_value("Content-Length"));
    too_large = length && *length > static_cast<double>(limits_.max_response_bytes);
    return !too_large;
  };
  request.content_receiver = [&](const char* data, size_t size, uint64_t, uint64_t) {
    too_large = response.body.size() + size > limits_.max_response_bytes;
    if (!too_large) response.body.append(data, size);
    return !too_large;
  };
  RequestWatch::Stop stop = RequestWatch::Stop::None;
  httplib::Result result = [&] {
    RequestWatch watch(deadline_);
    client_->set_socket_options([&watch](int socket) { watch.adopt(socket); });
    httplib::Result sent = client_->send(request);
    client_->set_socket_options(nullptr);
    stop = watch.stopped();
    return sent;
  }();
  if (stop == RequestWatch::Stop::Cancelled) throw Interrupted();
  if (stop == RequestWatch::Stop::Deadline) throw InfraError(deadline_passed);
  if (too_large)
    throw InfraError(fmt::format("{}: the response is larger than {} bytes; not reading the rest", what,
                                 limits_.max_response_bytes));
  if (!result) throw InfraError(fmt::format("{}: {}", what, describe(result.error())));
  response.status = result->status;
  for (const auto& [name, value] : result->headers) response.headers[lower(name)] = value;
  if (response.status < 200 || response.status >= 300) {
    // Redacted before it is shortened, so that no cut can leave half a token behind.
    std::string detail = shorten(redact(api_message(redact(response.body))), 200);
    throw InfraError(fmt::format("{}: HTTP {}{}", what, response.status, detail.empty() ? "" : ": " + detail));
  }
  return response;
}

std::string ApiClient::redact(std::string text) const {
  for (const auto& secret : secrets_)
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
      text.replace(at, secret.size(), "[token]");
  return text;
}

std::string without_credentials(const std::string& url) {
  // Also without a scheme: a mistyped variable must not print what it holds either.
  size_t scheme_end = url.find("://");
  size_t authority = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  size_t authority_end = std::min(url.find_first_of("/?#", authority), url.size());
  size_t at = url.substr(authority, authority_end - authority).rfind('@');
  if (at == std::string::npos) return url;
  return url.substr(0, authority) + "[credentials]" + url.substr(authority + at);
}

std::string encode_segment(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

}  // namespace cobench::post
