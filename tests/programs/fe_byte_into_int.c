// the top byte of a nondet int overwritten through a `char *`: SROA builds the int from its
// slices, starting from `and i32 undef, 0x00ffffff` whose bits the next mask clears (no read
// before a write). x >= 2^31 afterwards: the first error is unreachable, the second is not
// (any low 24 bits, so the check sees the nondet value too)
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  unsigned char *b = (unsigned char *)&x;
  b[3] = 0x80;
  if (x < 0x80000000u) reach_error();
  if (x == 0x80000005u) reach_error();
  return 0;
}
