extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct node { int data; struct node *prev, *next; };
int main(void) {
  struct node *a = malloc(sizeof *a), *b = malloc(sizeof *b), *c = malloc(sizeof *c);
  a->data = __VERIFIER_nondet_int(); b->data = __VERIFIER_nondet_int(); c->data = __VERIFIER_nondet_int();
  a->prev = 0; a->next = b; b->prev = a; b->next = c; c->prev = b; c->next = 0;
  struct node *victim = __VERIFIER_nondet_int() ? b : (__VERIFIER_nondet_int() ? a : c);
  if (victim->prev) victim->prev->next = victim->next;
  if (victim->next) victim->next->prev = victim->prev;
  struct node *first = victim == a ? b : a;
  int count = 0;
  for (struct node *p = first; p; p = p->next) {
    __VERIFIER_assert(p != victim);
    if (p->next) __VERIFIER_assert(p->next->prev == p);
    count++;
  }
  __VERIFIER_assert(count == 2);
  free(victim);
  return 0;
}
