// a list of 1000 nodes built by prepending, each holding 2, walked once to set a mark in every
// node (a write before the step reads `p->next`), then walked to check every node holds 2
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; int mark; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = 2;
    n->mark = 0;
    n->next = head;
    head = n;
  }
  for (struct node *p = head; p; p = p->next)
    p->mark = 1;
  for (struct node *p = head; p; p = p->next)
    if (p->data != 2) reach_error();
  return 0;
}
