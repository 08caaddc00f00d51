//===- BackgroundWriterTest.cpp - Files written by a thread of their own ---===//
//
// runtime/include/stencilc/io/BackgroundWriter.h: every job written, in order;
// at most maxPending waiting while the thread writes (a further submit()
// waits); the first error handed back to the caller, and nothing written
// after it.
//
//===----------------------------------------------------------------------===//
#include "stencilc/io/BackgroundWriter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace stencilc::rt;

namespace {

/// A write that records its job, after waiting for the gate to open.
struct Recorder {
  std::mutex mutex;
  std::vector<int> written;
  std::shared_future<void> gate;
  void write(int job) {
    gate.wait();
    if (job < 0)
      throw std::runtime_error("job " + std::to_string(job) + ": cannot write");
    std::lock_guard lock(mutex);
    written.push_back(job);
  }
};

TEST(BackgroundWriter, WritesEveryJobInOrder) {
  Recorder r;
  std::promise<void> open;
  r.gate = open.get_future().share();
  open.set_value();
  {
    BackgroundWriter<int> writer([&](const int &job) { r.write(job); }, 2);
    for (int job = 1; job <= 20; ++job)
      writer.submit(job);
    writer.drain();
    EXPECT_EQ(writer.written(), 20);
    EXPECT_LE(writer.peakPending(), 3u); // two waiting, one being written
  }
  std::vector<int> expected;
  for (int job = 1; job <= 20; ++job)
    expected.push_back(job);
  EXPECT_EQ(r.written, expected);
}

TEST(BackgroundWriter, ASubmitBeyondMaxPendingWaitsForTheWriter) {
  Recorder r;
  std::promise<void> open;
  r.gate = open.get_future().share();
  BackgroundWriter<int> writer([&](const int &job) { r.write(job); }, 2);
  writer.submit(1); // taken by the thread, which waits at the gate
  writer.submit(2);
  writer.submit(3); // returns once the thread holds 1: then 2 and 3 fill the queue
  std::atomic<bool> returned{false};
  auto fourth = std::async(std::launch::async, [&] {
    writer.submit(4);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(returned) << "submit() did not wait for a free slot";
  open.set_value();
  fourth.get();
  writer.drain();
  EXPECT_EQ(writer.written(), 4);
  EXPECT_EQ(writer.peakPending(), 3u);
  EXPECT_GT(writer.blockedSeconds(), 0.05);
}

TEST(BackgroundWriter, TheFirstErrorIsHandedBackAndNothingIsWrittenAfterIt) {
  Recorder r;
  std::promise<void> open;
  r.gate = open.get_future().share();
  BackgroundWriter<int> writer([&](const int &job) { r.write(job); }, 4);
  writer.submit(-1); // fails once the gate opens
  writer.submit(2);
  writer.submit(-3);
  open.set_value();
  try {
    writer.drain();
    FAIL() << "drain() did not rethrow the write's error";
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "job -1: cannot write");
  }
  EXPECT_THROW(writer.submit(5), std::runtime_error);
  EXPECT_EQ(writer.written(), 0);
  EXPECT_TRUE(r.written.empty());
}

} // namespace
