#include "post/http_client.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>
#include <httplib.h>

#include "core/errors.h"
#include "core/parse.h"

namespace cobench::post {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

std::string api_message(const std::string& body) {
  std::string detail;
  auto json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_object() && json.contains("message")) {
    const auto& message = json["message"];
    detail = message.is_string() ? message.get<std::string>() : message.dump();
  } else {
    detail = body;
  }
  std::replace_if(detail.begin(), detail.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  if (detail.size() > 200) detail = detail.substr(0, 200) + "…";
  return detail;
}

namespace {

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

nlohmann::json HttpResponse::json(const std::string& what) const {
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  if (parsed.is_discarded()) throw InfraError(what + ": the response is not JSON");
  return parsed;
}

std::string HttpResponse::header(const std::string& lower_case_name) const {
  auto found = headers.find(lower_case_name);
  return found == headers.end() ? "" : found->second;
}

ApiClient::ApiClient(const std::string& variable, const std::string& base_url,
                     std::vector<std::pair<std::string, std::string>> headers, std::string secret)
    : headers_(std::move(headers)), secret_(std::move(secret)) {
  size_t scheme_end = base_url.find("://");
  std::string scheme = scheme_end == std::string::npos ? "" : lower(base_url.substr(0, scheme_end));
  size_t path_start = scheme_end == std::string::npos ? std::string::npos : base_url.find('/', scheme_end + 3);
  origin_ = base_url.substr(0, path_start);
  prefix_ = path_start == std::string::npos ? "" : base_url.substr(path_start);
  while (!prefix_.empty() && prefix_.back() == '/') prefix_.pop_back();
  if ((scheme != "http" && scheme != "https") || origin_.size() <= scheme_end + 3)
    throw InputError(fmt::format("{}: not an http(s) URL: '{}'", variable, base_url));
  client_ = std::make_unique<httplib::Client>(origin_);
  std::string host = origin_.substr(scheme_end + 3);
  host = host.substr(0, host.find(':'));
  configure_proxy(*client_, scheme, lower(host));
  client_->set_connection_timeout(10);
  client_->set_read_timeout(30);
  client_->set_write_timeout(30);
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
  if (absolute_url.compare(0, base.size(), base) != 0)
    throw InfraError(fmt::format("pagination link '{}' leaves {}; not following it", redact(absolute_url), base));
  return absolute_url.substr(base.size());
}

HttpResponse ApiClient::send(const std::string& method, const std::string& path, const std::string* body) {
  std::string full_path = prefix_ + path;
  std::string what = fmt::format("{} {}{}", method, origin_, redact(full_path));
  httplib::Headers headers(headers_.begin(), headers_.end());
  httplib::Result result = method == "GET"    ? client_->Get(full_path, headers)
                           : method == "POST" ? client_->Post(full_path, headers, *body, "application/json")
                           : method == "PUT"  ? client_->Put(full_path, headers, *body, "application/json")
                                              : client_->Patch(full_path, headers, *body, "application/json");
  if (!result) throw InfraError(fmt::format("{}: {}", what, describe(result.error())));
  HttpResponse response;
  response.status = result->status;
  response.body = result->body;
  for (const auto& [name, value] : result->headers) response.headers[lower(name)] = value;
  if (response.status < 200 || response.status >= 300) {
    std::string detail = redact(api_message(response.body));
    throw InfraError(fmt::format("{}: HTTP {}{}", what, response.status, detail.empty() ? "" : ": " + detail));
  }
  return response;
}

std::string ApiClient::redact(std::string text) const {
  if (secret_.empty()) return text;
  for (size_t at = text.find(secret_); at != std::string::npos; at = text.find(secret_, at))
    text.replace(at, secret_.size(), "[token]");
  return text;
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
