// a list of 5 nodes built in a loop, then summed: the pool of the loop's malloc needs 5 objects
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 1; i <= 5; i++) {
    struct node *n = malloc(sizeof(struct node));
    n->data = i;
    n->next = head;
    head = n;
  }
  int sum = 0;
  for (struct node *p = head; p; p = p->next) sum += p->data;
  if (sum != 15) reach_error();
  return 0;
}
