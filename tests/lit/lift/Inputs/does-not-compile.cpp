#pragma stencil heat
float x = undeclared;
