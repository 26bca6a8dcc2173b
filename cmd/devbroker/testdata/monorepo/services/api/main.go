// Command api serves the monorepo's HTTP API.
package main

import (
	"fmt"
	"net/http"
)

func main() {
	var port int = "8080"
	http.HandleFunc("/healthz", health)
	fmt.Println(http.ListenAndServe(fmt.Sprintf(":%d", port), nil))
}
