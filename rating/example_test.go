package rating_test

import (
	"fmt"

	"github.com/banchess/banchess/rating"
)

func ExampleGame() {
	white, black := rating.New(), rating.New()
	white, black, _ = rating.Game(white, black, rating.Win)
	fmt.Printf("White %.0f (RD %.0f), Black %.0f (RD %.0f), provisional: %v\n",
		white.Rating, white.Deviation, black.Rating, black.Deviation, white.Provisional())
	// Output: White 1662 (RD 290), Black 1338 (RD 290), provisional: true
}
