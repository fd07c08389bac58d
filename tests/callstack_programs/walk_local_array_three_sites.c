/* A recursion called from three places of main whose body, once its helper is inlined, keeps
 * a local array in memory: not shared (each run of a shared body would reuse one array where
 * each call site has its own), so each call site gets its own stack. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int pick(int n) {
  int a[2];
  a[0] = n;
  a[1] = -n;
  return a[n & 1];
}
int walk(int n) {
  if (n <= 0) return 0;
  return pick(n) + walk(n - 1);
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) return 0;
  int x = walk(n) + walk(n + 1) + walk(2);
  if (x > 100) reach_error();
  return 0;
}
