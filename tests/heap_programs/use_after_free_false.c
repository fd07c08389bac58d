// a list freed in a loop that reads each node after freeing it (valid-memsafety: use after free)
#include <stdlib.h>
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof(struct node));
    n->data = i;
    n->next = head;
    head = n;
  }
  while (head) {
    free(head);
    head = head->next;
  }
  return 0;
}
