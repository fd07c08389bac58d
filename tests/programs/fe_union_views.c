// a union written whole as an `unsigned`, then read as bytes and halves and written by byte:
// SROA rebuilds the word from its slices in a chain of insertions, each mask clearing the
// slice the next one fills, so no bit of the result is undefined (no read before a write).
// The first error needs the views to disagree (unreachable); the second needs byte 2 of
// the input to be 0xAA (reachable).
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
union u { unsigned w; unsigned char b[4]; unsigned short h[2]; };
int main(void) {
  union u x;
  x.w = __VERIFIER_nondet_uint();
  if (x.b[0] == 0x11 && x.h[1] == 0x2233 && (x.w >> 16 != 0x2233 || (x.w & 0xff) != 0x11)) reach_error();
  x.h[0] = 0x5566;
  x.b[3] = 0x77;
  if (x.w == 0x77AA5566u) reach_error();
  return 0;
}
