//===- ShotFiles.h - Files that one shot writes and removes -----------------===//
//
// The disk strategies of the imaging example (Migration.cpp, CudaMigration.cu)
// write snapshot and checkpoint files that belong to one shot: a ShotFiles
// removes them when the shot ends, also on an error. Declared before whatever
// writes the files, it outlives the writer, which is then done with them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <utility>

namespace rtm {

class ShotFiles {
public:
  ShotFiles() = default;
  ShotFiles(const ShotFiles &) = delete;
  ShotFiles &operator=(const ShotFiles &) = delete;
  /// Removes every file added; one that is already gone or cannot be removed
  /// is passed over (an error of the shot, if any, is the one to report).
  ~ShotFiles() {
    for (const std::string &path : paths_) {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
  }

  /// Records `path` as the shot's (once, however often it is written) and
  /// returns it.
  const std::string &add(std::string path) { return *paths_.insert(std::move(path)).first; }

  const std::set<std::string> &paths() const { return paths_; }

private:
  std::set<std::string> paths_;
};

} // namespace rtm
