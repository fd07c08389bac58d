/* Every integer operator on concrete values: the error is reached iff all results match
   the C semantics (checked at compile time by the expected constants). */
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a != -37 || b != 5) return 0;
  unsigned ua = (unsigned)a;
  long long w = (long long)a * 1000000007LL;
  if (a + b == -32 && a - b == -42 && a * b == -185 && a / b == -7 && a % b == -2 &&
      ua / 5u == 858993451u && ua % 5u == 4u && (a << 3) == -296 && (a >> 2) == -10 &&
      (ua >> 28) == 15u && (a & b) == 1 && (a | b) == -33 && (a ^ b) == -34 &&
      w == -37000000259LL && (unsigned short)a == 65499 && (signed char)a == -37) {
    __VERIFIER_error();
  }
  return 0;
}
