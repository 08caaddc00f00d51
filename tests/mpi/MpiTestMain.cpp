//===- MpiTestMain.cpp - GoogleTest under mpiexec --------------------------===//
//
// Every rank runs every test (their collective calls must match). Only rank 0
// prints: the tests sum their findings over the ranks, so it reports what any
// rank found; every rank exits with the worst status of all, so mpiexec and
// ctest see a failure anywhere.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int status = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
