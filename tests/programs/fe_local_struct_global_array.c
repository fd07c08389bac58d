/* Aggregates accessed with constant indices only: SROA splits them into scalars. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
struct pair { int a; int b; };
int table[3] = {1, 2, 3};
int main(void) {
  struct pair p;
  p.a = __VERIFIER_nondet_int();
  p.b = table[1];
  table[2] = p.a;
  if (p.b + table[2] == 10) __VERIFIER_error();
  return 0;
}
