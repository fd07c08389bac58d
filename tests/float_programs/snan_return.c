// A signalling NaN returned by a function: on i386 the result passes through the x87
// register st(0), whose load makes it quiet, so the error is unreachable there (--32: TRUE);
// on x86-64 it comes back unchanged (FALSE).
#include <string.h>
extern void __VERIFIER_error(void);
extern unsigned __VERIFIER_nondet_uint(void);

float identity(float x) { return x; }

int main(void) {
  unsigned in = __VERIFIER_nondet_uint();
  float f;
  memcpy(&f, &in, sizeof f);
  float g = identity(f);
  unsigned out;
  memcpy(&out, &g, sizeof out);
  if (out == 0x7f800001u)
    __VERIFIER_error();
  return 0;
}
