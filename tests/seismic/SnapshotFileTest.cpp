//===- SnapshotFileTest.cpp - Snapshot files refuse what they do not hold ===//
//
// The imaging example's disk strategy (examples/rtm/SnapshotFile.h): a
// snapshot reads back as written; a truncated, extended, corrupted or
// foreign file, or one of another shape, type or step, is refused with a
// message naming the file and the mismatch; a directory that cannot be
// written fails the write (and the asynchronous writer hands the error back
// to the time loop).
//
//===----------------------------------------------------------------------===//
#include "SnapshotFile.h"
#include "AsyncSnapshotWriter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace rtm;

namespace {

class SnapshotFile : public testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("snapshot-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    values_.resize(shape_.points());
    for (size_t n = 0; n < values_.size(); ++n)
      values_[n] = float(n) * 0.25f - 3;
    path_ = (dir_ / "s.bin").string();
    writeSnapshotFile(path_, shape_, 12, values_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// The message readSnapshotFile throws for the file as it is now.
  std::string refusal(const SnapshotShape &shape, int step) {
    std::vector<float> out;
    try {
      readSnapshotFile(path_, shape, step, out);
    } catch (const std::runtime_error &e) {
      return e.what();
    }
    return "";
  }
  void rewrite(const std::function<void(std::string &)> &edit) {
    std::string bytes;
    {
      std::ifstream is(path_, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(is), {});
    }
    edit(bytes);
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << bytes;
  }

  fs::path dir_;
  std::string path_;
  SnapshotShape shape_{5, 4, 3};
  std::vector<float> values_;
};

TEST_F(SnapshotFile, ReadsBackWhatWasWritten) {
  std::vector<float> out;
  readSnapshotFile(path_, shape_, 12, out);
  EXPECT_EQ(out, values_);
  EXPECT_EQ(fs::file_size(path_), kSnapshotHeaderBytes + values_.size() * sizeof(float));
}

TEST_F(SnapshotFile, RefusesAnotherStepShapeOrType) {
  EXPECT_NE(refusal(shape_, 13).find("holds step 12, expected 13"), std::string::npos);
  EXPECT_NE(refusal({5, 4, 4}, 12).find("shape 5x4x3, expected 5x4x4"), std::string::npos);
  rewrite([](std::string &b) { b[8] = 2; });
  EXPECT_NE(refusal(shape_, 12).find("element type 2, expected 1 (float32)"), std::string::npos);
}

TEST_F(SnapshotFile, RefusesTruncatedAndExtendedFiles) {
  rewrite([](std::string &b) { b.resize(b.size() - 7); });
  EXPECT_NE(refusal(shape_, 12).find("truncated: "), std::string::npos) << refusal(shape_, 12);
  rewrite([](std::string &b) { b.resize(20); });
  EXPECT_NE(refusal(shape_, 12).find("truncated: shorter than a snapshot header"),
            std::string::npos);
}

TEST_F(SnapshotFile, RefusesExtraBytes) {
  rewrite([](std::string &b) { b += "x"; });
  EXPECT_NE(refusal(shape_, 12).find("longer than its header says"), std::string::npos);
}

TEST_F(SnapshotFile, RefusesACorruptedPayload) {
  rewrite([](std::string &b) { b[kSnapshotHeaderBytes + 9] ^= 0x10; });
  EXPECT_NE(refusal(shape_, 12).find("checksum mismatch"), std::string::npos);
}

TEST_F(SnapshotFile, RefusesAForeignFile) {
  std::ofstream(path_, std::ios::binary | std::ios::trunc)
      << "\x93NUMPY\x01 a .npy file, not a snapshot, but long enough for a header";
  const std::string why = refusal(shape_, 12);
  EXPECT_NE(why.find("not a snapshot file (bad magic)"), std::string::npos) << why;
  EXPECT_NE(why.find(path_), std::string::npos);
}

TEST_F(SnapshotFile, AnUnwritableDirectoryFailsTheWriteAndLeavesNothing) {
  const std::string missing = (dir_ / "no-such-dir" / "s.bin").string();
  try {
    writeSnapshotFile(missing, shape_, 1, values_);
    FAIL() << "wrote into a missing directory";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find(missing + ": cannot write the snapshot"),
              std::string::npos);
  }
  EXPECT_FALSE(fs::exists(missing));
}

TEST_F(SnapshotFile, TheWriterThreadHandsItsErrorBack) {
  AsyncSnapshotWriter writer(shape_, 2);
  const std::string missing = (dir_ / "no-such-dir" / "s.bin").string();
  writer.submit(missing, 1, values_);
  EXPECT_THROW(writer.drain(), std::runtime_error);
  EXPECT_THROW(writer.submit(missing, 2, values_), std::runtime_error);
}

TEST_F(SnapshotFile, TheWriterThreadWritesEverySnapshot) {
  {
    AsyncSnapshotWriter writer(shape_, 2);
    for (int step = 1; step <= 6; ++step)
      writer.submit((dir_ / ("w" + std::to_string(step))).string(), step, values_);
    writer.drain();
    EXPECT_LE(writer.peakPendingBytes(), 3 * shape_.points() * sizeof(float));
  }
  std::vector<float> out;
  for (int step = 1; step <= 6; ++step) {
    readSnapshotFile((dir_ / ("w" + std::to_string(step))).string(), shape_, step, out);
    EXPECT_EQ(out, values_);
  }
}

} // namespace
