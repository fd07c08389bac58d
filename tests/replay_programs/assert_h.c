#include <assert.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  int sum = 0;
  for (int i = 0; i < 3; i++)
    sum += c;
  assert(sum != 30);
  return 0;
}
