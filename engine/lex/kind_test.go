package lex

// kindNames name the kinds in the tests' messages.
var kindNames = [...]string{"EOF", "Space", "Text", "Comment", "Directive", "Ident", "Number",
	"String", "StrOpen", "StrMid", "StrClose", "Punct"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}
