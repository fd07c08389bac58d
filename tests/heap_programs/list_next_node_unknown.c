// a list node reached by address arithmetic from the one before (`n + 1`): outside its block
// in C, though a summary that lays the nodes out one after another would find the next node
// there, so the summary refuses it
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *last = 0;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = 1;
    n->next = last;
    last = n;
  }
  struct node *after = last->next + 1;
  if (after->data != 1) reach_error();
  return 0;
}
