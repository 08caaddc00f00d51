//===- TwoStepEntries.cpp -------------------------------------------------===//
#include "backends/cuda/TwoStepEntries.h"

#include <fmt/format.h>

#include <vector>

namespace stencilc::backend {

using ir::FieldRole;

namespace {

/// The ids of the outputs, in field order (the order of SecondOutputs and the erased list).
std::vector<int> outputsOf(const ir::Stencil &s) {
  std::vector<int> ids;
  for (size_t f = 0; f < s.fields.size(); ++f)
    if (s.fields[f].role == FieldRole::Output)
      ids.push_back(int(f));
  return ids;
}

} // namespace

std::string secondOutputMembers(const ir::Stencil &s, const KernelNames &names) {
  std::string out;
  for (int o : outputsOf(s))
    out += fmt::format("  rt::FieldView<Real> {}; ///< the second step's {}\n", names.field(o),
                       s.fields[o].name);
  return out;
}

namespace {

std::string refusal(const std::string &kernel, const std::string &reason) {
  return fmt::format("  throw rt::KernelError(\"{}: no launch of two steps: {}\");\n", kernel,
                     reason);
}

/// Every output of either step in a storage nothing else of the launch uses.
std::string storageCheck(const ir::Stencil &s, const KernelNames &names) {
  std::string out = "  const StorageUse uses[] = {\n";
  for (size_t f = 0; f < s.fields.size(); ++f)
    out +=
        fmt::format("      {{\"{}\", a.{}.origin, {}}},\n", s.fields[f].name, names.field(int(f)),
                    s.fields[f].role == FieldRole::Output ? "true" : "false");
  for (int o : outputsOf(s))
    out += fmt::format("      {{\"second {}\", second.{}.origin, true}},\n", s.fields[o].name,
                       names.field(o));
  return out + "  };\n  requireOwnStorage(uses);\n";
}

/// After two steps each time field holds the second step's level, the field
/// it overwrites (if any) the first step's; the outputs take the storages of
/// the two levels nothing reads any more.
std::string rotation(const ir::Stencil &s, const KernelNames &names) {
  std::string out;
  for (int o : outputsOf(s)) {
    const ir::Field &f = s.fields[o];
    const std::string O = names.field(o), F = names.field(f.advances);
    if (f.overwrites < 0) {
      out += fmt::format("  {{ // {0} <- second {1}; {1} and second {1} take {0}'s and {1}'s "
                         "old storages\n"
                         "    const rt::FieldView<const Real> freed = a.{0};\n"
                         "    a.{0} = rt::readOnlyView(second.{1});\n"
                         "    second.{1} = a.{1};\n"
                         "    a.{1} = rt::writableView(freed);\n  }}\n",
                         F, O);
      continue;
    }
    const std::string G = names.field(f.overwrites);
    out += fmt::format("  {{ // {0} <- {2}, {1} <- second {2}; {2} and second {2} take {0}'s and "
                       "{1}'s old storages\n"
                       "    const rt::FieldView<const Real> oldest = a.{0}, older = a.{1};\n"
                       "    a.{0} = rt::readOnlyView(a.{2});\n"
                       "    a.{1} = rt::readOnlyView(second.{2});\n"
                       "    a.{2} = rt::writableView(oldest);\n"
                       "    second.{2} = rt::writableView(older);\n  }}\n",
                       G, F, O);
  }
  return out;
}

} // namespace

std::string twoStepEntries(const ir::Stencil &s, const KernelNames &names,
                           const std::string &kernel, const std::string &reason) {
  constexpr const char *signature =
      "void runTwoSteps(const Args &{}, const SecondOutputs &{}, const LaunchOptions &{},\n"
      "                 const FirstStepAdd *{}, int {}) {{\n";
  if (!reason.empty())
    return fmt::format(fmt::runtime(signature), "", "", "", "", "") + refusal(kernel, reason) +
           "}\n\nvoid rotateTwoSteps(Args &, SecondOutputs &) {\n" + refusal(kernel, reason) +
           "}\n\n";
  std::string out =
      fmt::format(fmt::runtime(signature), "a", "second", "options", "adds", "addCount");
  out += "  checkArgs(a);\n  // The second step: the first's arguments rotated by one step, its "
         "outputs the second ones.\n  Args next = a;\n  rotate(next);\n";
  for (int o : outputsOf(s))
    out += fmt::format("  if (!second.{0}.origin)\n"
                       "    throw rt::KernelError(\"{1}: second output '{2}' is not set\");\n"
                       "  next.{0} = second.{0};\n",
                       names.field(o), kernel, s.fields[o].name);
  out += storageCheck(s, names);
  out += fmt::format(
      "  if (addCount < 0 || (addCount > 0 && !adds))\n"
      "    throw rt::KernelError(\"{0}: \" + std::to_string(addCount) +\n"
      "                          \" first-step adds at \" + (adds ? \"an array\" : \"null\"));\n"
      "  const Launch l =\n"
      "      resolveLaunch(rt::regionOf(\"{0}\", a.extent, options.region), options, "
      "Tuned::Ignore);\n"
      "  if (l.box.empty())\n"
      "    return; // nothing to compute, and CUDA refuses a launch grid with no blocks\n"
      "  launchSweep0TwoSteps(a, next, l, adds, addCount);\n}}\n\n",
      kernel);
  out += "void rotateTwoSteps(Args &a, SecondOutputs &second) {\n" + rotation(s, names) + "}\n\n";
  return out;
}

std::string erasedSecondOutputs(const ir::Stencil &s, const KernelNames &names,
                                const std::string &kernel) {
  const std::vector<int> ids = outputsOf(s);
  const size_t outputs = ids.size();
  std::string fill;
  for (size_t k = 0; k < outputs; ++k)
    fill += fmt::format("  s.{0} = {{static_cast<Real *>(second[{1}].origin), second[{1}].line, "
                        "second[{1}].plane}};\n",
                        names.field(ids[k]), k);
  return fmt::format("  if (second.size() != {})\n"
                     "    throw rt::KernelError(\"{}: {} second output{} needed\");\n",
                     outputs, kernel, outputs, outputs == 1 ? "" : "s") +
         fill;
}

} // namespace stencilc::backend
