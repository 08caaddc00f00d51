//===- FileOutput.cpp -----------------------------------------------------===//
#include "driver/FileOutput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace stencilc {

/// Writes every file or none: each goes to a temporary file first and is
/// renamed into place only when all of them were written.
bool writeFilesAtomically(const std::string &dir,
                          const std::vector<backend::GeneratedFile> &files) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    llvm::WithColor::error(llvm::errs(), "stencilc")
        << "cannot create directory '" << dir << "': " << ec.message() << "\n";
    return false;
  }
  std::vector<std::pair<std::string, std::string>> written; // temporary, final
  auto cleanUp = [&] {
    for (const auto &[temp, final] : written)
      llvm::sys::fs::remove(temp);
  };
  for (const backend::GeneratedFile &file : files) {
    llvm::SmallString<256> final(dir);
    llvm::sys::path::append(final, file.name);
    std::string temp = std::string(final) + ".tmp";
    std::error_code ec;
    llvm::raw_fd_ostream os(temp, ec, llvm::sys::fs::OF_Text);
    if (!ec) {
      written.push_back({temp, std::string(final)});
      os << file.text;
      os.close();
      if (os.has_error())
        ec = os.error();
    }
    if (ec) {
      llvm::WithColor::error(llvm::errs(), "stencilc")
          << "cannot write '" << temp << "': " << ec.message() << "\n";
      cleanUp();
      return false;
    }
  }
  for (const auto &[temp, final] : written)
    if (std::error_code ec = llvm::sys::fs::rename(temp, final)) {
      llvm::WithColor::error(llvm::errs(), "stencilc")
          << "cannot write '" << final << "': " << ec.message() << "\n";
      cleanUp();
      return false;
    }
  return true;
}

} // namespace stencilc
