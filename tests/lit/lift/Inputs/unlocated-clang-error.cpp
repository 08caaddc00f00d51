// A declaration Clang recovers from with one diagnostic that it gives no
// location ("templates can only be declared in namespace or class scope"):
// lift prints it at the location of the diagnostic before it.
#include <vector>
void f() {
  std::vector<int> std::vector<float> a(3);
}
