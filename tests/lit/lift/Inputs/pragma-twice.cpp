float a[8][8], b[8][8];
void f() {
#pragma stencil heat
  for (int j = 1; j < 7; ++j)
    for (int i = 1; i < 7; ++i)
      a[j][i] = b[j][i + 1];
}
void g() {
#pragma stencil heat
  for (int j = 1; j < 7; ++j)
    for (int i = 1; i < 7; ++i)
      b[j][i] = a[j][i + 1];
}
