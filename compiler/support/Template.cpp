//===- Template.cpp -------------------------------------------------------===//
#include "support/Template.h"

#include <set>
#include <stdexcept>
#include <utility>

namespace stencilc {

namespace {
struct EmbeddedTemplate {
  const char *path;
  const char *text;
};
const EmbeddedTemplate kTemplates[] = {
#include "EmbeddedTemplates.inc"
};

bool isNameChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
} // namespace

std::string_view embeddedTemplate(std::string_view path) {
  for (const EmbeddedTemplate &t : kTemplates)
    if (path == t.path)
      return t.text;
  throw std::logic_error("no embedded template '" + std::string(path) + "'");
}

std::string renderTemplate(std::string_view text,
                           const std::map<std::string, std::string> &values) {
  std::string out;
  std::set<std::string> used;
  size_t i = 0;
  while (i < text.size()) {
    size_t at = text.find('@', i);
    if (at == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, at - i));
    size_t end = at + 1;
    while (end < text.size() && isNameChar(text[end]))
      ++end;
    if (end == at + 1 || end >= text.size() || text[end] != '@') {
      out.push_back('@'); // a lone '@' is text
      i = at + 1;
      continue;
    }
    std::string name(text.substr(at + 1, end - at - 1));
    auto it = values.find(name);
    if (it == values.end())
      throw std::logic_error("template placeholder @" + name + "@ has no value");
    out.append(it->second);
    used.insert(name);
    i = end + 1;
  }
  for (const auto &[name, value] : values)
    if (!used.count(name))
      throw std::logic_error("template has no placeholder @" + name + "@");
  return out;
}

} // namespace stencilc
