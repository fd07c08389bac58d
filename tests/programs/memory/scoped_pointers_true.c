// pointers to locals used only while the locals live: swap, an out-parameter, a loop body's
// local whose address is taken in each iteration, a callee's array filled through a pointer
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
void put(int *out, int v) { *out = v; }
int sum3(int v) { int a[3]; put(&a[0], v); put(&a[1], v + 1); put(&a[2], v + 2); return a[0] + a[1] + a[2]; }
int main() {
  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
  if (x < 0 || x > 1000 || y < 0 || y > 1000) return 0;
  swap(&x, &y);
  swap(&x, &y);
  int total = 0;
  for (int i = 0; i < 4; i++) {
    int z;
    put(&z, i);
    int *q = &z;
    total += *q;
  }
  if (total != 6) reach_error();
  if (sum3(x) != 3 * x + 3) reach_error();
  int *p = &y;
  if (*p != y) reach_error();
  return 0;
}
