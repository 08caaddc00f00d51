//===- TuningFile.cpp -----------------------------------------------------===//
#include "analysis/TuningFile.h"

#include "analysis/HostCaches.h"
#include "ir/Printer.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <thread>

namespace stencilc::analysis {

namespace {

constexpr const char *kFormat = "stencilc-tuning 1";

std::string bytesText(long long bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0)
    return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= (1 << 10) && bytes % (1 << 10) == 0)
    return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} B", bytes);
}

llvm::json::Object keyObject(const MachineKey &k) {
  return llvm::json::Object{{"cpu", k.cpu},
                            {"cores", k.cores},
                            {"l1d_bytes", k.l1d},
                            {"l2_bytes", k.l2},
                            {"l3_bytes", k.l3}};
}

llvm::json::Object choiceObject(const TunedChoice &c) {
  return llvm::json::Object{
      {"variant", c.run.variant},
      {"block_y", c.run.blockY},
      {"block_z", c.run.blockZ},
      {"block_x", c.run.blockX},
      {"time_depth", c.run.timeDepth},
      {"time_tile_y", c.run.timeTileY},
      {"time_tile_z", c.run.timeTileZ},
      {"time_tile_x", c.run.timeTileX},
      {"gpts_per_s", c.gptsPerSecond},
      {"default_gpts_per_s", c.defaultGptsPerSecond},
      {"size", llvm::json::Array{c.nx, c.ny, c.nz}},
      {"date", c.date},
  };
}

llvm::json::Object launchObject(const TunedLaunch &l) {
  return llvm::json::Object{
      {"variant", l.variant},
      {"block_x", l.blockX},
      {"block_y", l.blockY},
      {"nw", l.nw},
      {"rows", l.rows},
      {"gpts_per_s", l.gptsPerSecond},
      {"default_gpts_per_s", l.defaultGptsPerSecond},
      {"size", llvm::json::Array{l.nx, l.ny, l.nz}},
      {"date", l.date},
  };
}

std::string at(const std::string &where, llvm::StringRef key) {
  return where.empty() ? key.str() : where + "." + key.str();
}

/// Reads one JSON value after another, the first problem ending it with a
/// message that says where.
class Reader {
public:
  explicit Reader(llvm::StringRef fileName) : fileName_(fileName) {}

  bool failed() const { return !problem_.empty(); }
  llvm::Error error() const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", fileName_.c_str(),
                                   problem_.c_str());
  }
  void fail(const std::string &where, const std::string &what) {
    if (problem_.empty())
      problem_ = where.empty() ? what : where + ": " + what;
  }

  const llvm::json::Object *object(const llvm::json::Value *v, const std::string &where) {
    const llvm::json::Object *o = v ? v->getAsObject() : nullptr;
    if (!o)
      fail(where, v ? "expected an object" : "missing");
    return o;
  }
  std::string string(const llvm::json::Object &o, const std::string &where, llvm::StringRef key) {
    const llvm::json::Value *v = o.get(key);
    auto s = v ? v->getAsString() : llvm::None;
    if (!s) {
      fail(at(where, key), v ? "expected a string" : "missing");
      return "";
    }
    return s->str();
  }
  long long integer(const llvm::json::Object &o, const std::string &where, llvm::StringRef key,
                    long long lo, long long hi) {
    const llvm::json::Value *v = o.get(key);
    auto i = v ? v->getAsInteger() : llvm::None;
    if (!i || *i < lo || *i > hi) {
      fail(at(where, key),
           v ? fmt::format("expected an integer from {} to {}", lo, hi) : "missing");
      return 0;
    }
    return *i;
  }
  /// integer(), with `absent` where the key is missing (a key added after
  /// files that lack it were written).
  long long optionalInteger(const llvm::json::Object &o, const std::string &where,
                            llvm::StringRef key, long long lo, long long hi, long long absent) {
    return o.get(key) ? integer(o, where, key, lo, hi) : absent;
  }
  double number(const llvm::json::Object &o, const std::string &where, llvm::StringRef key) {
    const llvm::json::Value *v = o.get(key);
    auto d = v ? v->getAsNumber() : llvm::None;
    if (!d || *d < 0) {
      fail(at(where, key), v ? "expected a number, 0 or more" : "missing");
      return 0;
    }
    return *d;
  }
  /// Fails on a key not in `known`: a misspelt key must not be silently ignored.
  void onlyKeys(const llvm::json::Object &o, const std::string &where,
                std::initializer_list<llvm::StringRef> known) {
    for (const auto &entry : o)
      if (std::find(known.begin(), known.end(), llvm::StringRef(entry.first)) == known.end())
        fail(where, "unknown key '" + entry.first.str() + "'");
  }

private:
  std::string fileName_;
  std::string problem_;
};

void readSize(Reader &r, const llvm::json::Object &o, const std::string &where, int &nx, int &ny,
              int &nz) {
  const llvm::json::Value *size = o.get("size");
  const llvm::json::Array *a = size ? size->getAsArray() : nullptr;
  if (!a || a->size() != 3 || !(*a)[0].getAsInteger() || !(*a)[1].getAsInteger() ||
      !(*a)[2].getAsInteger()) {
    r.fail(where + ".size", size ? "expected [nx, ny, nz]" : "missing");
    return;
  }
  nx = int(*(*a)[0].getAsInteger());
  ny = int(*(*a)[1].getAsInteger());
  nz = int(*(*a)[2].getAsInteger());
}

TunedChoice readChoice(Reader &r, const llvm::json::Object &o, const std::string &where) {
  r.onlyKeys(o, where,
             {"variant", "block_y", "block_z", "block_x", "time_depth", "time_tile_y",
              "time_tile_z", "time_tile_x", "gpts_per_s", "default_gpts_per_s", "size", "date"});
  TunedChoice c;
  c.run.variant = r.string(o, where, "variant");
  if (!r.failed() && c.run.variant != "naive" && c.run.variant != "blocked" &&
      c.run.variant != "planes" && c.run.variant != "auto")
    r.fail(where + ".variant",
           "'" + c.run.variant + "' is not a CPU variant (naive, blocked, planes, auto)");
  constexpr long long kMaxTile = 1 << 20;
  c.run.blockY = int(r.integer(o, where, "block_y", 0, kMaxTile));
  c.run.blockZ = int(r.integer(o, where, "block_z", 0, kMaxTile));
  c.run.timeDepth = int(r.integer(o, where, "time_depth", 1, 64));
  c.run.timeTileY = int(r.integer(o, where, "time_tile_y", 0, kMaxTile));
  c.run.timeTileZ = int(r.integer(o, where, "time_tile_z", 0, kMaxTile));
  // Files from before x tiles have none: whole rows, as those kernels ran.
  c.run.blockX = int(r.optionalInteger(o, where, "block_x", 0, kMaxTile, 0));
  c.run.timeTileX = int(r.optionalInteger(o, where, "time_tile_x", 0, kMaxTile, 0));
  c.gptsPerSecond = r.number(o, where, "gpts_per_s");
  c.defaultGptsPerSecond = r.number(o, where, "default_gpts_per_s");
  readSize(r, o, where, c.nx, c.ny, c.nz);
  c.date = r.string(o, where, "date");
  return c;
}

TunedLaunch readLaunch(Reader &r, const llvm::json::Object &o, const std::string &where) {
  r.onlyKeys(o, where,
             {"variant", "block_x", "block_y", "nw", "rows", "gpts_per_s", "default_gpts_per_s",
              "size", "date"});
  TunedLaunch l;
  l.variant = r.string(o, where, "variant");
  if (!r.failed() && l.variant != "gmem" && l.variant != "ro" && l.variant != "traditional" &&
      l.variant != "planes")
    r.fail(where + ".variant",
           "'" + l.variant + "' is not a CUDA variant (gmem, ro, traditional, planes)");
  // A block holds at most 1024 threads (CUDA's limit); nw is at most a grid's depth.
  l.blockX = int(r.integer(o, where, "block_x", 1, 1024));
  l.blockY = int(r.integer(o, where, "block_y", 1, 1024));
  l.nw = int(r.integer(o, where, "nw", 0, 1 << 20));
  l.rows = int(r.optionalInteger(o, where, "rows", 1, 64, 1));
  l.gptsPerSecond = r.number(o, where, "gpts_per_s");
  l.defaultGptsPerSecond = r.number(o, where, "default_gpts_per_s");
  readSize(r, o, where, l.nx, l.ny, l.nz);
  l.date = r.string(o, where, "date");
  return l;
}

/// The "stencils" object of a machine's or a device's entry, each type's choice read by `read`.
template <typename Choice, typename ReadChoice>
std::map<std::string, TunedEntries<Choice>> readStencils(Reader &r, const llvm::json::Object &entry,
                                                         const std::string &where,
                                                         ReadChoice read) {
  std::map<std::string, TunedEntries<Choice>> out;
  const llvm::json::Object *stencils = r.object(entry.get("stencils"), where + ".stencils");
  for (auto it = stencils ? stencils->begin() : llvm::json::Object::const_iterator();
       stencils && it != stencils->end() && !r.failed(); ++it) {
    const std::string name = it->first.str(), at = where + ".stencils." + name;
    const llvm::json::Object *so = r.object(&it->second, at);
    if (!so)
      break;
    r.onlyKeys(*so, at, {"hash", "float", "double"});
    TunedEntries<Choice> entries;
    entries.hash = r.string(*so, at, "hash");
    for (const char *type : {"float", "double"})
      if (const llvm::json::Value *v = so->get(type))
        if (const llvm::json::Object *co = r.object(v, at + "." + type))
          entries.byType[type] = read(r, *co, at + "." + type);
    out[name] = std::move(entries);
  }
  return out;
}

/// The "stencils" object of an entry, each type's choice written by `write`.
template <typename Choice, typename WriteChoice>
llvm::json::Object stencilsObject(const std::map<std::string, TunedEntries<Choice>> &stencils,
                                  WriteChoice write) {
  llvm::json::Object out;
  for (const auto &[name, entries] : stencils) {
    llvm::json::Object so{{"hash", entries.hash}};
    for (const auto &[type, choice] : entries.byType)
      so[type] = write(choice);
    out[name] = std::move(so);
  }
  return out;
}

/// Sets the entry of (stencil, type) under `hash`; an entry under another hash is stale, its
/// other types dropped.
template <typename Choice>
void mergeEntry(std::map<std::string, TunedEntries<Choice>> &stencils, const std::string &stencil,
                const std::string &hash, const std::string &type, const Choice &choice) {
  TunedEntries<Choice> &entries = stencils[stencil];
  if (entries.hash != hash)
    entries.byType.clear();
  entries.hash = hash;
  entries.byType[type] = choice;
}

} // namespace

std::string tuningDate() {
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  return date;
}

std::string MachineKey::describe() const {
  return fmt::format("{}, {} cores, L1d {}, L2 {}, L3 {}", cpu, cores, bytesText(l1d),
                     bytesText(l2), bytesText(l3));
}

MachineKey thisMachine() {
  const HostCaches caches = readHostCaches();
  MachineKey k;
  k.cpu = readCpuModel();
  k.cores = int(std::thread::hardware_concurrency());
  k.l1d = caches.l1d;
  k.l2 = caches.l2;
  k.l3 = caches.l3;
  return k;
}

std::string machineKeyJson(const MachineKey &key) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(keyObject(key));
  return os.str();
}

std::string stencilHash(const ir::Stencil &s) {
  std::string text;
  llvm::raw_string_ostream os(text);
  ir::printStencil(s, os);
  os.flush();
  // The first line says "..., type float, ...": the type is left out.
  const std::string type = std::string(", type ") + ir::elemTypeName(s.elemType);
  const size_t at = text.find(type);
  if (at != std::string::npos && at < text.find('\n'))
    text.erase(at, type.size());
  return fmt::format("xxh64:{:016x}", llvm::xxHash64(text));
}

llvm::Expected<TuningFile> parseTuningFile(llvm::StringRef text, llvm::StringRef fileName) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: not JSON: %s",
                                   fileName.str().c_str(),
                                   llvm::toString(json.takeError()).c_str());
  Reader r(fileName);
  TuningFile file;
  const llvm::json::Object *top = r.object(&*json, "the top level");
  if (!top)
    return r.error();
  r.onlyKeys(*top, "the top level", {"format", "machines", "devices"});
  const std::string format = r.string(*top, "", "format");
  if (!r.failed() && format != kFormat)
    r.fail("format", "'" + format + "' is not '" + kFormat + "'");
  const llvm::json::Value *machines = top->get("machines");
  const llvm::json::Array *list = machines ? machines->getAsArray() : nullptr;
  if (!list)
    r.fail("machines", machines ? "expected an array" : "missing");
  for (size_t m = 0; list && m < list->size() && !r.failed(); ++m) {
    const std::string where = fmt::format("machines[{}]", m);
    const llvm::json::Object *entry = r.object(&(*list)[m], where);
    if (!entry)
      break;
    r.onlyKeys(*entry, where, {"machine", "stencils"});
    TunedMachine tm;
    if (const llvm::json::Object *key = r.object(entry->get("machine"), where + ".machine")) {
      r.onlyKeys(*key, where + ".machine", {"cpu", "cores", "l1d_bytes", "l2_bytes", "l3_bytes"});
      tm.key.cpu = r.string(*key, where + ".machine", "cpu");
      tm.key.cores = int(r.integer(*key, where + ".machine", "cores", 1, 1 << 20));
      tm.key.l1d = r.integer(*key, where + ".machine", "l1d_bytes", 0, 1LL << 50);
      tm.key.l2 = r.integer(*key, where + ".machine", "l2_bytes", 0, 1LL << 50);
      tm.key.l3 = r.integer(*key, where + ".machine", "l3_bytes", 0, 1LL << 50);
    }
    tm.stencils = readStencils<TunedChoice>(r, *entry, where, readChoice);
    if (std::any_of(file.machines.begin(), file.machines.end(),
                    [&](const TunedMachine &o) { return o.key == tm.key; }))
      r.fail(where + ".machine", "the same machine as an earlier entry");
    file.machines.push_back(std::move(tm));
  }
  // Files written before CUDA launches were tuned have no "devices".
  const llvm::json::Value *devices = top->get("devices");
  const llvm::json::Array *deviceList = devices ? devices->getAsArray() : nullptr;
  if (devices && !deviceList)
    r.fail("devices", "expected an array");
  for (size_t d = 0; deviceList && d < deviceList->size() && !r.failed(); ++d) {
    const std::string where = fmt::format("devices[{}]", d);
    const llvm::json::Object *entry = r.object(&(*deviceList)[d], where);
    if (!entry)
      break;
    r.onlyKeys(*entry, where, {"device", "stencils"});
    TunedDevice td;
    if (const llvm::json::Object *key = r.object(entry->get("device"), where + ".device")) {
      r.onlyKeys(*key, where + ".device", {"name", "compute_capability"});
      td.key.name = r.string(*key, where + ".device", "name");
      td.key.computeCapability =
          int(r.integer(*key, where + ".device", "compute_capability", 10, 1000));
    }
    td.stencils = readStencils<TunedLaunch>(r, *entry, where, readLaunch);
    if (std::any_of(file.devices.begin(), file.devices.end(),
                    [&](const TunedDevice &o) { return o.key == td.key; }))
      r.fail(where + ".device", "the same device as an earlier entry");
    file.devices.push_back(std::move(td));
  }
  if (r.failed())
    return r.error();
  return file;
}

llvm::Expected<TuningFile> readTuningFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "%s: cannot read: %s", path.c_str(),
                                   buffer.getError().message().c_str());
  return parseTuningFile((*buffer)->getBuffer(), path);
}

std::string tuningFileText(const TuningFile &file) {
  llvm::json::Array machines;
  for (const TunedMachine &m : file.machines) {
    machines.push_back(llvm::json::Object{{"machine", keyObject(m.key)},
                                          {"stencils", stencilsObject(m.stencils, choiceObject)}});
  }
  llvm::json::Object top{{"format", kFormat}, {"machines", std::move(machines)}};
  if (!file.devices.empty()) {
    llvm::json::Array devices;
    for (const TunedDevice &d : file.devices)
      devices.push_back(llvm::json::Object{
          {"device", llvm::json::Object{{"name", d.key.name},
                                        {"compute_capability", d.key.computeCapability}}},
          {"stencils", stencilsObject(d.stencils, launchObject)}});
    top["devices"] = std::move(devices);
  }
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(top))).str() + "\n";
}

void mergeChoice(TuningFile &file, const MachineKey &machine, const std::string &stencil,
                 const std::string &hash, const std::string &type, const TunedChoice &choice) {
  auto m = std::find_if(file.machines.begin(), file.machines.end(),
                        [&](const TunedMachine &o) { return o.key == machine; });
  if (m == file.machines.end()) {
    file.machines.push_back(TunedMachine{machine, {}});
    m = std::prev(file.machines.end());
  }
  mergeEntry(m->stencils, stencil, hash, type, choice);
}

void mergeLaunch(TuningFile &file, const DeviceKey &device, const std::string &stencil,
                 const std::string &hash, const std::string &type, const TunedLaunch &launch) {
  auto d = std::find_if(file.devices.begin(), file.devices.end(),
                        [&](const TunedDevice &o) { return o.key == device; });
  if (d == file.devices.end()) {
    file.devices.push_back(TunedDevice{device, {}});
    d = std::prev(file.devices.end());
  }
  mergeEntry(d->stencils, stencil, hash, type, launch);
}

std::vector<std::pair<DeviceKey, TunedLaunch>> launchesFor(const TuningFile &file,
                                                           const std::string &stencil,
                                                           const std::string &hash,
                                                           const std::string &type) {
  std::vector<std::pair<DeviceKey, TunedLaunch>> out;
  for (const TunedDevice &d : file.devices) {
    auto s = d.stencils.find(stencil);
    if (s == d.stencils.end() || s->second.hash != hash)
      continue;
    auto l = s->second.byType.find(type);
    if (l != s->second.byType.end())
      out.push_back({d.key, l->second});
  }
  return out;
}

llvm::Error writeTuningFile(const std::string &path, const TuningFile &file) {
  const std::string text = tuningFileText(file);
  llvm::SmallString<256> temp;
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  llvm::SmallString<256> model(dir.empty() ? "." : dir);
  llvm::sys::path::append(model, llvm::sys::path::filename(path) + ".tmp-%%%%%%");
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
    return llvm::createStringError(ec, "%s: cannot write: %s", path.c_str(), ec.message().c_str());
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    os.close();
    if (os.has_error())
      ec = os.error();
  }
  if (!ec)
    ec = llvm::sys::fs::rename(temp, path);
  if (ec) {
    llvm::sys::fs::remove(temp);
    return llvm::createStringError(ec, "%s: cannot write: %s", path.c_str(), ec.message().c_str());
  }
  return llvm::Error::success();
}

TuningLookup findChoice(const TuningFile &file, const MachineKey &machine,
                        const std::string &stencil, const std::string &hash,
                        const std::string &type) {
  TuningLookup out;
  auto m = std::find_if(file.machines.begin(), file.machines.end(),
                        [&](const TunedMachine &o) { return o.key == machine; });
  if (m == file.machines.end()) {
    std::string others;
    for (const TunedMachine &o : file.machines)
      others += (others.empty() ? "" : "; ") + o.key.describe();
    out.whyNot = "it has no entry for this machine (" + machine.describe() + ")" +
                 (others.empty() ? "" : ", only for " + others);
    return out;
  }
  auto s = m->stencils.find(stencil);
  if (s == m->stencils.end()) {
    out.whyNot = "it has no entry for stencil '" + stencil + "' on this machine";
    return out;
  }
  if (s->second.hash != hash) {
    out.whyNot = "its entry for stencil '" + stencil + "' is stale: it was tuned from " +
                 s->second.hash + ", the stencil is now " + hash + " (run `stencilc tune` again)";
    return out;
  }
  auto c = s->second.byType.find(type);
  if (c == s->second.byType.end()) {
    out.whyNot = "its entry for stencil '" + stencil + "' has no " + type + " kernels";
    return out;
  }
  out.choice = &c->second;
  return out;
}

} // namespace stencilc::analysis
