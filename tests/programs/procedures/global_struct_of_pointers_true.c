/* A global struct holding function pointers, assigned at run time (its named type printed as
 * its whole definition once: the memory encoder read that as an unknown global). */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct ops { int (*apply)(int); int scale; };
struct holder { struct ops ops; int (*fallback)(int); } global_holder;
static int inc(int x) { return x + 1; }
static int dbl(int x) { return 2 * x; }
int main(void) {
  global_holder.ops.apply = __VERIFIER_nondet_int() ? inc : dbl;
  global_holder.fallback = inc;
  int r = global_holder.ops.apply(3);
  if (r != 4 && r != 6) reach_error();
  return 0;
}
